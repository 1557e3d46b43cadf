import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * The import rules of docs/architecture.md: the pipeline folders never import the simulator,
 * the demo, the report, the CLI or the bench, which sit on top of them; core/ imports no other
 * folder of ours; and a source file reaches another folder only through that folder's index.ts.
 */

const SRC = fileURLToPath(new URL('.', import.meta.url));
const PIPELINE = ['core', 'prompts', 'llm', 'plan', 'agents', 'exec', 'orchestrator', 'tasks', 'environment', 'store', 'collect', 'pairs', 'rm', 'select', 'train', 'serve'];
const ON_TOP = ['sim', 'demo', 'report', 'cli', 'bench'];

/** Every non-test source file under `folder`, with the top-level folders its relative imports reach and the paths they name. */
function importsOf(folder: string): { file: string; reaches: string[]; targets: string[] }[] {
  const found: { file: string; reaches: string[]; targets: string[] }[] = [];
  const visit = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !path.includes('test-fixtures')) {
        const text = readFileSync(path, 'utf8');
        const targets = [...text.matchAll(/(?:from\s+|import\(\s*)'(\.[^']+)'/g)].map((match) => relative(SRC, join(directory, match[1]!)).split(/[\\/]/).join('/'));
        found.push({ file: relative(SRC, path), reaches: targets.map((target) => target.split('/')[0]!), targets });
      }
    }
  };
  visit(join(SRC, folder));
  return found;
}

describe('the import direction', () => {
  it('keeps the simulator, demo, report, CLI and bench out of every pipeline folder', () => {
    const wrong = PIPELINE.flatMap((folder) => importsOf(folder).flatMap(({ file, reaches }) => reaches.filter((reached) => ON_TOP.includes(reached)).map((reached) => `${file} imports ${reached}/`)));
    expect(wrong).toEqual([]);
  });

  it('keeps core/ at the bottom: it imports no other folder', () => {
    const wrong = importsOf('core').flatMap(({ file, reaches }) => reaches.filter((reached) => reached !== 'core').map((reached) => `${file} imports ${reached}/`));
    expect(wrong).toEqual([]);
  });

  it('reaches another folder only through its index.ts', () => {
    const folders = [...PIPELINE, ...ON_TOP, 'testing', 'entry-points'];
    const wrong = folders.flatMap((folder) =>
      importsOf(folder).flatMap(({ file, targets }) => targets.filter((target) => !target.startsWith(`${folder}/`) && !/^[^/]+\/index\.js$/.test(target)).map((target) => `${file} imports ${target}`)),
    );
    expect(wrong).toEqual([]);
  });

  it('knows every folder of src/', () => {
    const folders = readdirSync(SRC, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect(folders.filter((folder) => ![...PIPELINE, ...ON_TOP, 'testing', 'entry-points'].includes(folder))).toEqual([]);
  });
});
