import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ORCHESTRATOR_PROMPTS } from './prompt-templates.js';
import { writeOrchestratorMessages, type OrchestratorPromptParts } from './orchestrator-prompt.js';
import { readOrchestratorPrompt } from './read-orchestrator-prompt.js';

const parts = (format: 'json' | 'xml', dom: OrchestratorPromptParts['dom']): OrchestratorPromptParts => ({
  blocks: '- cot: Chain of thought.\n- search (also retrieve): Searches.',
  format,
  dom,
  example: format === 'json' ? '{"dom": "high", "nodes": []}' : '<dom>high</dom>',
});

describe('the orchestrator prompt codec: what writeOrchestratorMessages writes, readOrchestratorPrompt reads back', () => {
  it('lays out system, developer and user messages, with the example only when the DoM allows several agents', () => {
    const messages = writeOrchestratorMessages('  What is 17 * 23?  ', parts('json', 'auto'));
    expect(messages.map((message) => message.role)).toEqual(['system', 'developer', 'user']);
    expect(messages[2]?.content).toBe('Task:\nWhat is 17 * 23?\n\nWrite the plan.');
    const developer = messages[1]?.content ?? '';
    expect(developer).toContain('```json\n{"dom": "high", "nodes": []}\n```');
    expect(developer).toContain(ORCHESTRATOR_PROMPTS.jsonDirectAnswer);
    expect(writeOrchestratorMessages('q', parts('xml', 'low'))[1]?.content).not.toContain('<dom>high</dom>');
    expect(writeOrchestratorMessages('q', parts('xml', 'high'))[1]?.content).not.toContain(ORCHESTRATOR_PROMPTS.xmlDirectAnswer);
  });

  it('round-trips the question, the format and an imposed DoM', () => {
    const question = fc
      .array(fc.stringMatching(/^[A-Za-z0-9 :?.,'()${}-]{0,40}$/), { minLength: 1, maxLength: 5 })
      .map((lines) => lines.join('\n').trim())
      .filter((text) => text !== '' && !text.endsWith('Write the plan'));
    fc.assert(
      fc.property(question, fc.constantFrom('json' as const, 'xml' as const), fc.constantFrom('low' as const, 'high' as const, 'auto' as const), (text, format, dom) => {
        expect(readOrchestratorPrompt(writeOrchestratorMessages(text, parts(format, dom)))).toEqual({ question: text, format, ...(dom !== 'auto' && { dom }) });
      }),
    );
  });

  it('reads a prompt written by another client as its question', () => {
    expect(readOrchestratorPrompt([{ role: 'user', content: '  Who founded Zentrix Labs? ' }])).toEqual({ question: 'Who founded Zentrix Labs?' });
  });
});
