import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startChatServer, type ChatCompletionBody, type ChatServer } from '../testing/index.js';
import { ensureBuilt, REPO_ROOT } from './test-fixtures/built-package.js';

/*
 * Runs every command README.md shows, exactly as written (`sh -c` on the line), in one scratch
 * folder inside the repository, so `npx orchrm` finds this package's own bin as it does for a user
 * on a fresh clone. The inputs the README names as the user's (a provider config, benchmark
 * files, a plan, a corpus) are written first; a chat server on 127.0.0.1 stands in for vLLM with
 * Qwen3's habit of <think> in the content. Independent chains run side by side to keep this test
 * short.
 *
 * Not run, and why: `npm ci && npm start` and `npm test` (CI runs exactly these two: npm test is
 * what runs this file, after npm ci; `npm start` is the full demo, several minutes, whose code path
 * `npx orchrm demo --quick` below runs at smaller sizes).
 */

const README = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
const NOT_RUN = new Set(['npm ci && npm start', 'npm test']);

/** Shell commands of the README: every line of ```sh blocks, and the `npx orchrm ...` examples of the CLI table. */
function readmeCommands(): string[] {
  const commands: string[] = [];
  for (const block of README.matchAll(/```sh\n([\s\S]*?)```/g)) {
    for (const line of block[1]!.split('\n')) if (line.trim() !== '' && !line.trim().startsWith('#')) commands.push(line.trim());
  }
  for (const row of README.split('\n').filter((line) => line.startsWith('| `'))) {
    for (const span of row.matchAll(/`(npx orchrm [^`]+)`/g)) commands.push(span[1]!);
  }
  return commands;
}

/**
 * Which chain a command belongs to: the ones reading or writing the same files run in README order,
 * except that the demo chain starts with the demo, which writes what the others read.
 */
function chainOf(command: string): string {
  if (/orchrm-demo/.test(command)) return 'demo';
  if (/vllm\.json|runs\.db|[^-]rm\.safetensors/.test(command)) return 'real-server';
  if (/sim\.db|sim-rm|strong\.json/.test(command)) return 'sim';
  return `alone:${command}`;
}

const PLAN = (agent: string, input: string) => JSON.stringify({ dom: 'low', nodes: [{ id: 'A', agent, input, params: {} }], edges: [], answer: 'A' });

let server: ChatServer;
let work: string;
beforeAll(async () => {
  await ensureBuilt();
  // Qwen3 on vLLM without a reasoning parser: every answer starts with its <think> block.
  let plans = 0;
  server = await startChatServer({
    models: ['Qwen/Qwen3-8B'],
    handler: (body: ChatCompletionBody) => {
      const text = body.messages.map((message) => String(message.content)).join('\n');
      const think = (answer: string) => ({ text: `<think>\nLet me work through this.\n</think>\n\n${answer}` });
      if (text.includes('Judge: ')) return think('The second candidate checks its work.\n<choice>2</choice>');
      if (text.trimEnd().endsWith('Write the plan.')) return think(plans++ % 2 === 0 ? PLAN('cot', 'Guess quickly.') : PLAN('sc', 'Work it out carefully.'));
      const numbers = [...text.matchAll(/\b\d+\b/g)].map((match) => Number(match[0]));
      return think(text.includes('carefully') ? `<answer>${numbers.at(-1) ?? 0}</answer>` : '<answer>12345</answer>');
    },
  });
  mkdirSync(join(REPO_ROOT, 'tmp'), { recursive: true });
  work = mkdtempSync(join(REPO_ROOT, 'tmp', 'readme-'));
  const config = JSON.parse(/```json\n([\s\S]*?)```/.exec(README)![1]!) as Record<string, unknown>;
  writeFileSync(join(work, 'vllm.json'), JSON.stringify({ ...config, baseURL: server.url }));
  const jsonl = (records: object[]) => `${records.map((record) => JSON.stringify(record)).join('\n')}\n`;
  writeFileSync(join(work, 'gsm8k-test.jsonl'), jsonl(Array.from({ length: 10 }, (_, index) => ({ question: `Tom has ${index + 3} apples. How many apples does he have?`, answer: `He has ${index + 3}.\n#### ${index + 3}` }))));
  writeFileSync(join(work, 'aime-2025.jsonl'), jsonl([3, 4].map((n) => ({ id: `2025-I-${n}`, problem: `Find the remainder when ${n * 100} is divided by 1000, which is ${n * 100}.`, answer: String(n * 100) }))));
  writeFileSync(join(work, 'math500-test.jsonl'), jsonl([{ problem: 'What is $1/2$ as a fraction?', solution: 'It is $\\boxed{\\frac{1}{2}}$.', answer: '\\frac{1}{2}', subject: 'Algebra', level: 1, unique_id: 'test/algebra/1.json' }]));
  writeFileSync(join(work, 'corpus.jsonl'), jsonl([{ id: 'd1', title: 'X', text: 'X was founded by Ada in 1901.' }, { id: 'd2', title: 'Y', text: 'Y is a river.' }]));
  writeFileSync(join(work, 'plan.txt'), PLAN('sc', ''));
}, 300_000);
afterAll(async () => {
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

interface Outcome {
  command: string;
  code: number | null;
  seconds: number;
  output: string;
}

/** Runs one line with sh; a server command runs until it answers, then gets Ctrl-C. */
function run(command: string): Promise<Outcome> {
  const started = performance.now();
  const server = /\borchrm (sim )?serve\b/.test(command) || (/\borchrm view\b/.test(command) && !command.includes('--out'));
  const child = spawn('sh', ['-c', command], { cwd: work, detached: true, env: { ...process.env, FORCE_COLOR: '0' } });
  let output = '';
  let probed = false;
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    const listening = /listening on (http:\S+)/.exec(output);
    if (server && listening && !probed) {
      probed = true;
      const url = listening[1]!;
      // It answers: the reward server's health check, the simulation's model list, or the viewer's first page of tasks.
      const probe = command.includes('sim serve') ? `${url}/models` : command.includes('orchrm view') ? `${url}api/tasks` : `${url.replace(/\/$/, '')}/healthz`;
      void fetch(probe)
        .then((response) => (output += `\n[test] ${response.status} from ${url}\n`))
        .catch((error: unknown) => (output += `\n[test] no answer from ${url}: ${String(error)}\n`))
        .finally(() => process.kill(-child.pid!, 'SIGINT'));
    }
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  return new Promise((resolve) =>
    child.on('exit', (code, signal) => resolve({ command, code: server && (signal === 'SIGINT' || code === 130) ? 0 : code, seconds: (performance.now() - started) / 1000, output })),
  );
}

it('runs every command of README.md as written', async () => {
  const commands = readmeCommands();
  const notRun = commands.filter((command) => NOT_RUN.has(command.replace(/\s+#.*$/, '')));
  expect(notRun.map((command) => command.replace(/\s+#.*$/, ''))).toEqual([...NOT_RUN]);
  const runnable = commands.filter((command) => !notRun.includes(command));
  expect(runnable.length).toBeGreaterThan(20);
  const chains = new Map<string, string[]>();
  for (const command of runnable) chains.set(chainOf(command), [...(chains.get(chainOf(command)) ?? []), command]);
  chains.get('demo')?.sort((a, b) => Number(!/\borchrm demo\b/.test(a)) - Number(!/\borchrm demo\b/.test(b)));
  const outcomes = (
    await Promise.all(
      [...chains.values()].map(async (chain) => {
        const done: Outcome[] = [];
        for (const command of chain) done.push(await run(command));
        return done;
      }),
    )
  ).flat();
  console.log(outcomes.map((outcome) => `${outcome.seconds.toFixed(1).padStart(6)} s  exit ${outcome.code}  ${outcome.command}`).join('\n'));
  for (const outcome of outcomes) expect({ command: outcome.command, code: outcome.code, output: outcome.code === 0 ? '' : outcome.output.slice(-3000) }).toEqual({ command: outcome.command, code: 0, output: '' });
  const text = (fragment: string) => outcomes.find((outcome) => outcome.command.includes(fragment))!.output;
  // The servers answered before they were stopped, and the real-server chain did what the README says.
  expect(text('orchrm serve --model')).toMatch(/\[test\] 200 from/);
  expect(text('orchrm sim serve')).toMatch(/\[test\] 200 from/);
  expect(text('orchrm view --db orchrm-demo')).toMatch(/\[test\] 200 from/);
  // The demo names what it wrote as a newcomer would type it: relative to the folder it ran in.
  expect(text('orchrm demo --quick')).toMatch(/^results {2}orchrm-demo\/results\.json$/m);
  expect(text('--suite aime --provider vllm.json')).toMatch(/warning: rm\.safetensors was trained on gsm8k tasks from gsm8k-test\.jsonl .* but this run uses aime tasks from aime-2025\.jsonl/);
  expect(text('--suite gsm8k --provider vllm.json')).toMatch(/run \S+: 80 of 80 episodes/);
}, 600_000);
