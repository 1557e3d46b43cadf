#!/usr/bin/env node
// `npm run prepare`: builds dist/ only when a source is newer than it, and says so.
//
// Why not always build: npm runs a package's `prepare` whenever it installs the package from a
// folder, and `npx orchrm` in a clone does exactly that the first time (the project's own bin is
// not in node_modules/.bin, so npx installs this folder into its cache, running `prepare`
// there), as does `npm install <path-to-clone>`. An unconditional `tsc` there cost 45-80 s with no
// output after `npm ci` had just built the same files. Plain JavaScript: it runs before dist/ exists.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Newest modification time of what `npm run build` compiles (tests and fixtures excluded), and of the configs that steer it. */
export function newestSourceMs() {
  let newest = 0;
  const visit = (directory) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'test-fixtures') visit(path);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
        newest = Math.max(newest, statSync(path).mtimeMs);
      }
    }
  };
  visit(join(root, 'src'));
  for (const file of ['package.json', 'tsconfig.json', 'tsconfig.build.json']) newest = Math.max(newest, statSync(join(root, file)).mtimeMs);
  return newest;
}

/** When dist/ was last built (its CLI entry is written last by `npm run build`), 0 when never. */
export function builtMs() {
  return statSync(join(root, 'dist', 'cli', 'main.js'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (builtMs() >= newestSourceMs()) {
    process.stderr.write('orchrm: dist/ is up to date with src/; not rebuilding\n');
  } else {
    process.stderr.write(`orchrm: building dist/ from src/ (npm run build; about a minute on 2 cores)${builtMs() === 0 ? '' : ': a source is newer than the last build'}\n`);
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  }
}
