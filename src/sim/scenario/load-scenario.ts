import { existsSync } from 'node:fs';
import { InvalidInputError, InvalidUtf8Error, ownEntry, readTextFile, UserError, zodIssues } from '../../core/index.js';
import { BUILTIN_SCENARIOS } from './builtin-scenarios.js';
import { ScenarioSchema, type Scenario } from './scenario-schema.js';

/** Names of the built-in scenarios. */
export function scenarioNames(): string[] {
  return Object.keys(BUILTIN_SCENARIOS);
}

/** A built-in scenario by name, or a scenario JSON file by path; validated either way. */
export function loadScenario(nameOrPath: string): Scenario {
  const builtin = ownEntry(BUILTIN_SCENARIOS, nameOrPath);
  if (builtin) return ScenarioSchema.parse(builtin);
  if (!existsSync(nameOrPath)) {
    throw new UserError(
      `no scenario named "${nameOrPath}" and no such file; use one of ${scenarioNames().join(', ')} or a path to a scenario JSON file (orchrm sim scenarios lists them)`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(readTextFile(nameOrPath));
  } catch (error) {
    if (error instanceof InvalidUtf8Error) throw error;
    const fix = 'fix the JSON (a scenario is one object such as {"name": "mine", "families": {"arith": {}}}; see docs/sim.md)';
    throw new UserError(`scenario file ${nameOrPath} is not valid JSON (${(error as Error).message}); ${fix}`);
  }
  const parsed = ScenarioSchema.safeParse(value);
  if (!parsed.success) {
    throw new InvalidInputError(`scenario file ${nameOrPath}`, zodIssues(parsed.error), 'See docs/sim.md for every knob and its default.');
  }
  return parsed.data;
}
