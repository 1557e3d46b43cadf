// What the replay scripts read of a finished `npx orchrm demo` folder: their flags, its
// results.json, the plan outcomes of its every-source pair dataset, and its stored Best-of-N
// outcomes (every strategy and fixed plan on every test task, with tokens).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPlanOutcomes, openStore } from '../dist/index.js';

/** `--name value` flags as an object; exits 2, saying why, without `--demo`. */
export function demoArgs() {
  const args = Object.fromEntries(process.argv.slice(2).map((arg, index, all) => (arg.startsWith('--') ? [arg.slice(2), all[index + 1]] : null)).filter(Boolean));
  if (args.demo === undefined) {
    process.stderr.write('give --demo <folder of `npx orchrm demo`> (it must hold demo.db and results.json)\n');
    process.exit(2);
  }
  return args;
}

/** The demo folder's results.json, its every-source dataset's plan outcomes, and its last Best-of-N result's payload. */
export function loadDemoRun(folder) {
  const results = JSON.parse(readFileSync(join(folder, 'results.json'), 'utf8'));
  const store = openStore(join(folder, 'demo.db'), { readonly: true });
  try {
    const dataset = store.listPairDatasets().find((record) => record.config?.labelFree !== true);
    return { results, outcomes: loadPlanOutcomes(store, dataset.id), bon: store.listResults('bon').at(-1)?.payload };
  } finally {
    store.close();
  }
}
