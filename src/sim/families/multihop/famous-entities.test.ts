import { describe, expect, it } from 'vitest';
import { Rng } from '../../../core/rng.js';
import { MultihopFamilySchema } from '../../scenario/scenario-schema.js';
import type { StepOutcome } from '../family.js';
import { createMultihopFamily } from './create-multihop-family.js';
import { isFamous, rumourKey } from './famous-entities.js';
import { followRelation, lookupEntity, valueName, type KbValue } from './knowledge-base.js';
import { buildMultihopWorld } from './multihop-world.js';
import type { RelationName } from './relations.js';

const SEED = 7;
const config = MultihopFamilySchema.parse({ hops: [1, 4], famousShare: 0.5, famousTop: 0.05, rumours: 1 });
const family = createMultihopFamily(config, SEED);
const world = buildMultihopWorld(config.entities, SEED, config);
const tasks = family.generate({ count: 120, rng: new Rng(3), idPrefix: 'test' });
const documents = new Map(family.corpus().map((document) => [document.id, document]));

/** The chain's subjects (anchor and inner values), walked in the knowledge base. */
function subjects(anchorName: string, chain: readonly RelationName[]): KbValue[] {
  let current = lookupEntity(world.kb, anchorName) as KbValue;
  const found = [current];
  for (const relation of chain.slice(0, -1)) {
    current = followRelation(world.kb, relation, current) as KbValue;
    found.push(current);
  }
  return found;
}

describe('famous entities and rumours (issue 21)', () => {
  it('a famous question goes only through famous entities, and its hops are read as famous', () => {
    const famous = tasks.filter((task) => (task.metadata.axes as { structure: string }).structure === 'famous');
    expect(famous.length).toBeGreaterThan(40);
    expect(famous.length).toBeLessThan(80);
    for (const task of famous) {
      const chain = task.metadata.chain as RelationName[];
      expect(subjects(task.metadata.anchor as string, chain).every((subject) => isFamous(world.famous, subject))).toBe(true);
      const problem = family.read({ subTask: task.question, originalQuestion: task.question, documents: [] });
      expect(problem?.steps.every((step) => step.famous === true && step.evidence === 'absent')).toBe(true);
    }
  });

  it('a shown rumour misleads the hop it is about, and a failure that believes it gives its value', () => {
    let checked = 0;
    for (const task of tasks) {
      const chain = task.metadata.chain as RelationName[];
      const [anchor] = subjects(task.metadata.anchor as string, chain);
      const rumour = anchor === undefined ? undefined : world.rumours.get(rumourKey(chain[0] as RelationName, anchor));
      if (rumour === undefined) continue;
      const shown = [documents.get(rumour.documentId)!];
      const problem = family.read({ subTask: task.question, originalQuestion: task.question, documents: shown });
      expect(problem?.steps[0]?.misled).toBe(true);
      expect(problem?.steps.slice(1).some((step) => step.misled)).toBe(false);
      if (chain.length !== 1) continue;
      const fail = (planted: boolean) => problem?.solve((): StepOutcome => ({ ok: false, wrongSeed: 3, planted })).answer;
      expect(fail(true)).toBe(valueName(world.kb, rumour.value));
      expect(fail(false)).not.toBe(task.answer);
      checked++;
    }
    expect(checked).toBeGreaterThan(3);
  });

  it('no rumours and no famous questions when the knobs are 0, and the other questions stay as they were', () => {
    const off = MultihopFamilySchema.parse({ hops: [1, 4], famousShare: 0, rumours: 0 });
    const plain = createMultihopFamily(off, SEED);
    expect(plain.corpus().some((document) => document.id.startsWith('kb-rumour-'))).toBe(false);
    const plainTasks = plain.generate({ count: 120, rng: new Rng(3), idPrefix: 'test' });
    expect(plainTasks.every((task) => (task.metadata.axes as { structure: string }).structure === 'chain')).toBe(true);
    tasks.forEach((task, index) => {
      if ((task.metadata.axes as { structure: string }).structure === 'chain') expect(task.question).toBe(plainTasks[index]?.question);
    });
  });
});
