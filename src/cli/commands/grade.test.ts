import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { afterEach, describe, expect, test } from 'vitest';
import { registerGradeCommand } from './grade.js';

afterEach(() => {
  process.exitCode = undefined;
});

async function run(...args: string[]) {
  const stdout = new PassThrough();
  let output = '';
  stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const program = new Command('orchrm').exitOverride().configureOutput({ writeErr: () => undefined });
  registerGradeCommand(program, { stdout, stderr: new PassThrough() });
  await program.parseAsync(['grade', ...args], { from: 'user' });
  return { stdout: output, exitCode: process.exitCode };
}

describe('orchrm grade', () => {
  test('--json has exactly the documented keys; exit code 0 when correct', async () => {
    const { stdout, exitCode } = await run('--suite', 'math', '--gold', '\\frac{1}{2}', '--pred', '$0.5$', '--json');
    expect(JSON.parse(stdout)).toEqual({ correct: true, normalizedGold: '\\frac{1}{2}', normalizedPred: '0.5', method: 'math_numeric' });
    expect(exitCode).toBe(0);
  });

  test('GSM8K reformattings and AIME leading zeros', async () => {
    expect(JSON.parse((await run('--suite', 'gsm8k', '--gold', '18', '--pred', '18 dollars', '--json')).stdout).correct).toBe(true);
    expect(JSON.parse((await run('--suite', 'aime', '--gold', '25', '--pred', '025', '--json')).stdout)).toEqual({
      correct: true,
      normalizedGold: '25',
      normalizedPred: '25',
      method: 'aime_integer',
    });
  });

  test('QA adds the token F1 score and accepts aliases; exit code 1 when incorrect', async () => {
    const { stdout, exitCode } = await run('--suite', 'hotpotqa', '--gold', 'Barack Obama', '--pred', 'Obama', '--json');
    expect(JSON.parse(stdout)).toEqual({ correct: false, normalizedGold: 'barack obama', normalizedPred: 'obama', method: 'qa_exact_match', score: 2 / 3 });
    expect(exitCode).toBe(1);
    expect(JSON.parse((await run('--suite', 'musique', '--gold', 'G. Stanley Hall', '--alias', 'Stanley Hall', '--pred', 'stanley hall', '--json')).stdout).correct).toBe(true);
  });

  test('text output', async () => {
    const { stdout } = await run('--suite', 'math', '--gold', 'x^2+1', '--pred', 'x^2-1');
    expect(stdout).toBe('incorrect by math_equivalence\n  gold "x^2+1"\n  pred "x^2-1"\n');
  });

  test('--suite is required and checked', async () => {
    await expect(run('--gold', '1', '--pred', '1')).rejects.toThrow(/--suite/);
    await expect(run('--suite', 'trivia', '--gold', '1', '--pred', '1')).rejects.toThrow(/Allowed choices are gsm8k, math, aime, hotpotqa, musique, jsonl/);
  });
});
