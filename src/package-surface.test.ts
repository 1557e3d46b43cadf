import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, REPO_ROOT } from './cli/test-fixtures/built-package.js';

/*
 * What a user of the published package gets: every entry point exists, its types compile for a
 * strict consumer (they name no package whose types are only a devDependency, the cause of
 * TS7016 with better-sqlite3), and the docs import only names those entry points export.
 */

const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  bin: Record<string, string>;
  exports: Record<string, { types: string; import: string }>;
  dependencies: Record<string, string>;
};

beforeAll(ensureBuilt, 300_000);

/** Every .d.ts reachable from `entry` through relative imports and re-exports, with the bare specifiers each names. */
function reachableDeclarations(entry: string): Map<string, string[]> {
  const files = new Map<string, string[]>();
  const visit = (file: string) => {
    if (files.has(file) || !existsSync(file)) return;
    // Comments hold @example imports; only declarations count.
    const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    const specifiers = [...text.matchAll(/(?:from\s+|import\(\s*)['"]([^'"]+)['"]/g)].map((match) => match[1]!);
    files.set(file, specifiers.filter((specifier) => !specifier.startsWith('.')));
    for (const specifier of specifiers) if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier.replace(/\.js$/, '.d.ts')));
  };
  visit(entry);
  return files;
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

/** A package ships its own types when its package.json names them or it has an index.d.ts. */
function shipsTypes(name: string): boolean {
  const directory = join(REPO_ROOT, 'node_modules', name);
  const own = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as { types?: string; typings?: string; exports?: unknown };
  return own.types !== undefined || own.typings !== undefined || existsSync(join(directory, 'index.d.ts')) || JSON.stringify(own.exports ?? '').includes('"types"');
}

describe('the published package', () => {
  it('has every entry point and the bin it declares', () => {
    for (const [subpath, entry] of Object.entries(manifest.exports)) {
      expect(existsSync(join(REPO_ROOT, entry.import)), `${subpath} ${entry.import}`).toBe(true);
      expect(existsSync(join(REPO_ROOT, entry.types)), `${subpath} ${entry.types}`).toBe(true);
    }
    for (const file of Object.values(manifest.bin)) expect(readFileSync(join(REPO_ROOT, file), 'utf8').startsWith('#!/usr/bin/env node')).toBe(true);
  });

  it('publishes types that name only packages a consumer installs with their types', () => {
    const problems: string[] = [];
    for (const entry of Object.values(manifest.exports)) {
      for (const [file, specifiers] of reachableDeclarations(join(REPO_ROOT, entry.types))) {
        for (const specifier of specifiers) {
          const name = packageName(specifier.replace(/^node:/, ''));
          if (specifier.startsWith('node:') || builtinModules.includes(name)) continue;
          const where = file.slice(REPO_ROOT.length);
          if (!(name in manifest.dependencies)) problems.push(`${where} imports ${specifier}, which is not a dependency`);
          else if (!shipsTypes(name) && !(`@types/${name}` in manifest.dependencies)) problems.push(`${where} imports ${specifier}, whose types (@types/${name}) are not a dependency`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('is imported in README and docs only from its entry points, by names they export', async () => {
    const documents = ['README.md', ...readdirSync(join(REPO_ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => join('docs', name))];
    const seen: string[] = [];
    for (const document of documents) {
      const text = readFileSync(join(REPO_ROOT, document), 'utf8');
      for (const match of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'(orchrm[^']*)'/g)) {
        const subpath = match[2] === 'orchrm' ? '.' : `./${match[2]!.slice('orchrm/'.length)}`;
        const entry = manifest.exports[subpath];
        expect(entry, `${document} imports from '${match[2]}', which package.json does not export`).toBeDefined();
        const exported = (await import(pathToFileURL(join(REPO_ROOT, entry!.import)).href)) as Record<string, unknown>;
        const names = match[1]!.split(',').map((name) => name.trim()).filter((name) => name !== '' && name !== '...' && !name.startsWith('type '));
        for (const name of names) expect(name in exported, `${document}: ${name} from '${match[2]}'`).toBe(true);
        seen.push(`${document}: ${match[2]}`);
      }
    }
    expect(seen).toEqual(expect.arrayContaining(['README.md: orchrm', 'docs/tasks.md: orchrm']));
    // The first import loads every entry point's modules: 22 s here beside the type-check of a
    // parallel worker, and past the default 30 s once on a fresh clone.
  }, 90_000);

  it("type-checks README's library examples as a strict consumer would, without skipLibCheck", async () => {
    const examples = [...readFileSync(join(REPO_ROOT, 'README.md'), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
    const entryPoints = examples.map((example) => [...new Set([...example.matchAll(/from '(orchrm[^']*)'/g)].map((match) => match[1]!))].join(' + '));
    // One example for real servers that needs nothing but `orchrm`, and one on the simulator.
    expect(entryPoints).toEqual(expect.arrayContaining(['orchrm', 'orchrm/sim']));
    // Inside the repository, so `orchrm` resolves to this package by its own name, as it does for a user.
    mkdirSync(join(REPO_ROOT, 'tmp'), { recursive: true });
    const project = mkdtempSync(join(REPO_ROOT, 'tmp', 'readme-types-'));
    try {
      examples.forEach((example, index) => writeFileSync(join(project, `example-${index}.ts`), `${example}\nexport {};\n`));
      const compilerOptions = { strict: true, skipLibCheck: false, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', types: ['node'], typeRoots: [join(REPO_ROOT, 'node_modules', '@types')] };
      writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.ts'] }));
      const tsc = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
      const result = await promisify(execFile)(process.execPath, [tsc, '-p', project], { cwd: project }).then(
        () => '',
        (error: { stdout?: string }) => error.stdout ?? String(error),
      );
      expect(result).toBe('');
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  }, 120_000);
});

