import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pythonWith, runPython } from '../../core/test-fixtures/python-harness.js';
import { buildOrchestratorMessages, defaultBlockCatalog } from '../../plan/index.js';
import { FIXTURE_DATE, fixtureTemplate, fixtureTemplatePath, TEMPLATE_NAMES } from '../../serve/test-fixtures/render-chat.js';
import { chatTemplateFromConfig, readChatTemplate, type ChatTemplateMessage } from './chat-template.js';

const python = pythonWith(['jinja2']);
const HARNESS = new URL('../../serve/test-fixtures/render_chat_template.py', import.meta.url).pathname;

const CONVERSATIONS: Record<string, ChatTemplateMessage[]> = {
  orchestrator: buildOrchestratorMessages('What is 17 * 23?', { catalog: defaultBlockCatalog(), format: 'xml', dom: 'auto' }),
  'user only': [{ role: 'user', content: 'Task:\nWhat is 2+2?\n\nWrite the plan.' }],
  'system and user': [{ role: 'system', content: 'You plan.' }, { role: 'user', content: 'Task:\nX\n\nWrite the plan.' }],
  'a trained pair': [{ role: 'user', content: 'What is 2+2?' }, { role: 'assistant', content: '<agent>\n<agent_id>A</agent_id>\n</agent>\n' }],
  'non-ASCII': [{ role: 'user', content: 'Wie viel ist 2+2? — ½ · π' }],
};

describe.skipIf(!python.available)(`real chat templates rendered here and by Python Jinja2 with transformers' settings ${python.reason}`, () => {
  const cases = TEMPLATE_NAMES.flatMap((name) => Object.entries(CONVERSATIONS).flatMap(([conversation, messages]) => [true, false].map((addGenerationPrompt) => ({ name, conversation, messages, addGenerationPrompt }))));
  let reference: { text: string | null; error: string | null }[];
  let directory: string;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'orchrm-chat-template-'));
    const jobs = cases.map(({ name, messages, addGenerationPrompt }) => ({ config: fixtureTemplatePath(name), messages, add_generation_prompt: addGenerationPrompt, now: '2026-07-26' }));
    writeFileSync(join(directory, 'jobs.json'), JSON.stringify(jobs));
    const run = await runPython(HARNESS, [join(directory, 'jobs.json')]);
    if (run.code !== 0) throw new Error(`harness failed: ${run.stderr}`);
    reference = JSON.parse(run.stdout) as typeof reference;
  }, 60_000);

  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it(`renders every one of ${TEMPLATE_NAMES.length} templates x 5 conversations x 2 exactly as transformers would, and fails where it fails`, () => {
    const outcomes = cases.map(({ name, messages, addGenerationPrompt }, index) => {
      const expected = reference[index]!;
      let text: string | null = null;
      try {
        text = fixtureTemplate(name).render(messages, { addGenerationPrompt });
      } catch {
        text = null;
      }
      return { name, same: text === expected.text, failedBoth: text === null && expected.text === null };
    });
    expect(outcomes.filter((outcome) => !outcome.same)).toEqual([]);
    // Gemma refuses a system turn and Command R a developer turn between system and user, in both.
    expect(outcomes.filter((outcome) => outcome.failedBoth).map((outcome) => outcome.name).sort()).toEqual(['command-r', 'command-r', 'gemma', 'gemma', 'gemma', 'gemma']);
  });
});

describe('readChatTemplate', () => {
  let directory: string;
  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'orchrm-chat-template-'));
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('renders what hand-written layouts got wrong: Qwen2.5\'s default system prompt, Qwen3\'s empty think block, Llama 3.1\'s date header', () => {
    const pair = CONVERSATIONS['a trained pair']!;
    expect(fixtureTemplate('qwen2.5-instruct').render(pair)).toMatch(/^<\|im_start\|>system\nYou are Qwen, created by Alibaba Cloud\. You are a helpful assistant\.<\|im_end\|>\n<\|im_start\|>user\n/);
    expect(fixtureTemplate('qwen3').render(pair)).toContain('<|im_start|>assistant\n<think>\n\n</think>\n\n<agent>');
    expect(fixtureTemplate('llama3.1-instruct').render(pair)).toContain('<|start_header_id|>system<|end_header_id|>\n\nCutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n<|eot_id|>');
    expect(fixtureTemplate('llama3.2-instruct').render(pair)).toContain(`Today Date: 26 Jul ${FIXTURE_DATE.getFullYear()}`);
  });

  it('reads a chat_template.jinja beside a config without one, named templates, and AddedToken special tokens', () => {
    writeFileSync(join(directory, 'tokenizer_config.json'), JSON.stringify({ bos_token: { content: '<s>', lstrip: false }, eos_token: '</s>' }));
    writeFileSync(join(directory, 'chat_template.jinja'), '{{ bos_token }}{% for m in messages %}[{{ m.role }}]{{ m.content }}{% endfor %}{{ eos_token }}');
    const fromConfig = readChatTemplate(join(directory, 'tokenizer_config.json'));
    expect(fromConfig.render([{ role: 'user', content: 'hi' }])).toBe('<s>[user]hi</s>');
    expect(fromConfig.source).toBe(join(directory, 'chat_template.jinja'));
    expect(readChatTemplate(join(directory, 'chat_template.jinja')).bosToken).toBe('<s>');
    const named = chatTemplateFromConfig({ chat_template: [{ name: 'default', template: 'D' }, { name: 'tool_use', template: 'T' }] }, 'x');
    expect(named.render([])).toBe('D');
    expect(chatTemplateFromConfig({ chat_template: [{ name: 'tool_use', template: 'T' }] }, 'x', { name: 'tool_use' }).render([])).toBe('T');
  });

  it('says what is wrong with a file that is not a chat model\'s tokenizer config', () => {
    // A folder of its own: no chat_template.jinja beside these files.
    const folder = mkdtempSync(join(directory, 'bad-'));
    const path = (name: string, text: string) => (writeFileSync(join(folder, name), text), join(folder, name));
    expect(() => readChatTemplate(join(folder, 'missing.json'))).toThrow(/missing\.json does not exist; point at the model's tokenizer_config\.json/);
    expect(() => readChatTemplate(path('broken.json', '{'))).toThrow(/broken\.json is not valid JSON/);
    expect(() => readChatTemplate(path('nochat.json', '{"eos_token": "</s>"}'))).toThrow(/nochat\.json has no chat_template/);
    expect(() => readChatTemplate(path('wrong.json', '{"chat_template": 7}'))).toThrow(/chat_template: chat_template must be a string or a list/);
    expect(() => readChatTemplate(path('unparsable.json', '{"chat_template": "{% for %}"}'))).toThrow(/cannot be parsed/);
    expect(() => fixtureTemplate('gemma').render(CONVERSATIONS['system and user']!)).toThrow(/the chat template of .*gemma\.json failed on this conversation \(roles system, user\): System role not supported/);
  });
});
