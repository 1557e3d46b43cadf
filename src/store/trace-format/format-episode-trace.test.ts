import { expect, it } from 'vitest';
import { createParseErrorEpisode, createRichEpisode } from '../../testing/episode-factory.js';
import { formatEpisodeTrace } from './format-episode-trace.js';
import { excerpt } from './text-excerpt.js';

it('shows the plan, every node with its calls and artifacts, and the totals', () => {
  const episode = createRichEpisode({ seed: 3, runId: 'run_1' });
  const lines = formatEpisodeTrace(episode).split('\n');
  expect(lines[0]).toBe(`Episode ${episode.id}  [ok]`);
  expect(lines).toContain('  planner:  sim checkpoint step-0 (step 0), sample 0, seed 3');
  expect(lines).toContain('Plan (json, dom high, 7 nodes, 5 edges)');
  expect(lines).toContain('  E  debate     <- B, C, D  [answer]');
  expect(lines).toContain('  edges: A->B, B->E, C->E, D->E, F->G');
  expect(lines).toContain('    query 1: "query 0 über task-3" -> no documents (error: retriever timed out)');
  expect(lines).toContain('    votes: "43" x1, "" x1');
  expect(lines).toContain('    round 2: Economist="43", Analyst="43"');
  expect(lines).toContain('    {"checks":2,"passed":false}');
  expect(lines).toContain('[F] verifier  runtime_error (verifier call failed after 3 attempts: HTTP 500)  tokens 135 (125+10)  started +5 ms, took 10.3 ms');
  expect(lines).toContain('       error: HTTP 500: upstream error');
  expect(lines).toContain('Grade: correct (math_equivalence, score 1)');
  expect(lines).toContain('Tokens: orchestrator 298 (127+171) | execution 5246 (3709+1537) | verification 15 (12+3) | total 5559');
  // Without --full, prompts stay hidden and long responses are cut to one line.
  expect(lines.some((line) => line.includes('You are a careful solver.'))).toBe(false);
  expect(lines.find((line) => line.trimStart().startsWith('response: {"dom"'))).toMatch(/… \(\+\d+ chars\)$/);
});

it('shows full prompts and texts with --full, and the diagnostics of an unparsed plan', () => {
  const episode = createParseErrorEpisode({ seed: 3 });
  const text = formatEpisodeTrace(episode, { full: true });
  expect(text).toContain('Plan (unknown, not parsed); plan text:\n    ```json\n    {"nodes": [{"id": "A",');
  expect(text).toContain('Diagnostics:\n  - json_syntax at (root): unexpected end of JSON input');
  expect(text).toContain('     [system]:\n       You are a careful solver.');
  expect(text).toContain('Nodes (0):');
  expect(text.split('\n').every((line) => line === line.trimEnd())).toBe(true);
});

it('reflexion rounds show verdicts and revisions', () => {
  const episode = createRichEpisode({ seed: 1 });
  const reflexion = episode.nodes.find((node) => node.agent === 'reflexion');
  expect(reflexion?.artifacts?.kind).toBe('reflexion');
  const text = formatEpisodeTrace({ ...episode, nodes: reflexion ? [reflexion] : [] });
  expect(text).toContain(
    [
      '  artifacts (reflexion):',
      '    initial answer: "40"',
      '    round 0: incorrect -> "41"; critique: Step 0 is off by one',
      '    round 1: correct; critique: Looks right ✓',
      '    accepted at round 1',
    ].join('\n'),
  );
});

it('excerpts collapse whitespace and say how much was cut', () => {
  expect(excerpt('a\n  b', 10)).toBe('a⏎ b');
  expect(excerpt('x'.repeat(12), 10)).toBe('xxxxxxxxxx… (+2 chars)');
});
