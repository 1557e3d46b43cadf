import { afterEach, describe, expect, it, vi } from 'vitest';
import { ModelBehaviorError, SystemError, UserError } from '../core/errors.js';
import { runAction } from './run-action.js';

/** What runAction writes to stderr for an action that throws `error`. */
async function printed(error: unknown): Promise<string> {
  const written: string[] = [];
  const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => written.push(String(chunk)) > 0);
  try {
    await runAction(() => {
      throw error;
    })();
  } finally {
    write.mockRestore();
  }
  return written.join('');
}

describe('runAction', () => {
  afterEach(() => {
    process.exitCode = undefined;
  });

  it('prints only the message of an error the user, the model or the server caused', async () => {
    expect(await printed(new UserError('--db x.db does not exist; run orchrm collect first'))).toBe('orchrm: --db x.db does not exist; run orchrm collect first\n');
    expect(await printed(new ModelBehaviorError('the reward model returned 3 scores for 4 plans'))).toBe('orchrm: the reward model returned 3 scores for 4 plans\n');
    expect(process.exitCode).toBe(2);
  });

  it('prints the stack of a bug, in the error tree or not, asking for a report', async () => {
    for (const bug of [new SystemError('PairStore.insert called on a read-only connection'), new TypeError('x is undefined')]) {
      const text = await printed(bug);
      expect(text).toContain('please report it');
      expect(text).toContain(bug.message);
      expect(text).toMatch(/\n\s+at /);
    }
    expect(process.exitCode).toBe(2);
  });
});
