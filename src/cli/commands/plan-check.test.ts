import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { registerPlanCheckCommand } from './plan-check.js';

const directory = mkdtempSync(join(tmpdir(), 'orchrm-plan-check-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
afterEach(() => {
  process.exitCode = undefined;
});

function planFile(name: string, text: string): string {
  const path = join(directory, name);
  writeFileSync(path, text);
  return path;
}

/** Runs `orchrm plan check ...args` in-process and captures what it prints and its exit code. */
async function run(...args: string[]) {
  let stdout = '';
  let stderr = '';
  const program = new Command('orchrm').exitOverride();
  registerPlanCheckCommand(program, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  await program.parseAsync(['plan', 'check', ...args], { from: 'user' });
  return { stdout, stderr, exitCode: process.exitCode };
}

const validXml = `<dom>high</dom>
<agent><agent_id>B</agent_id><agent_name>SearchAgent</agent_name><required_arguments><agent_input>Find X</agent_input></required_arguments></agent>
<agent><agent_id>A</agent_id><agent_name>CoTAgent</agent_name><required_arguments><agent_input>Use \${B}</agent_input></required_arguments></agent>
<edge><from>B</from><to>A</to></edge>`;

describe('orchrm plan check', () => {
  test('--json on a valid plan: the exact shape, exit code 0', async () => {
    const { stdout, exitCode } = await run(planFile('valid.xml', validXml), '--json');
    const output = JSON.parse(stdout);
    expect(Object.keys(output)).toEqual(['ok', 'plan', 'diagnostics', 'warnings', 'format']);
    expect(output).toMatchObject({ ok: true, diagnostics: [], warnings: [], format: 'xml', plan: { dom: 'high', answer: 'A' } });
    expect(output.plan.nodes.map((node: { agent: string }) => node.agent)).toEqual(['search', 'cot']);
    expect(exitCode).toBe(0);
  });

  test('--json on an invalid plan: null plan, located diagnostics, exit code 1', async () => {
    const text = '{"dom": "low", "nodes": [{"id": "A", "agent": "Oracle", "input": "${Z}"}]}';
    const { stdout, exitCode } = await run(planFile('invalid.json', text), '--json', '--format', 'json');
    expect(JSON.parse(stdout)).toEqual({
      ok: false,
      plan: null,
      diagnostics: [
        { code: 'unknown_agent', message: expect.stringContaining('cot, sc, reflexion, debate, search'), path: 'nodes[0].agent' },
      ],
      // A ${Z} naming no node is text sent as written, reported but not refused (docs/plan-format.md).
      warnings: [{ code: 'dangling_ref', message: expect.stringContaining('${Z}'), path: 'nodes[0].input' }],
      format: 'json',
    });
    expect(exitCode).toBe(1);
  });

  test('--dom low rejects a plan with several agents', async () => {
    const { stdout, exitCode } = await run(planFile('high.xml', validXml), '--dom', 'low');
    expect(stdout).toContain('invalid plan (xml): 1 problem(s)');
    expect(stdout).toContain('[dom_violation] dom:');
    expect(exitCode).toBe(1);
  });

  test('readable output shows the canonical rendering and the warnings', async () => {
    const text = validXml.replace('<edge><from>B</from><to>A</to></edge>', '<from>B</from><to>A</to>');
    const { stdout, exitCode } = await run(planFile('loose.xml', text));
    expect(stdout).toMatch(/^valid plan \(xml\)\n\n<dom>high<\/dom>\n<agent>\n  <agent_id>B<\/agent_id>/);
    expect(stdout).toContain('warnings:\n  - [edge_without_wrapper] edges:');
    expect(exitCode).toBe(0);
  });

  test('an unreadable file is exit code 2 with a clear error', async () => {
    const { stdout, stderr, exitCode } = await run(join(directory, 'missing.json'), '--json');
    expect(stdout).toBe('');
    expect(stderr).toMatch(/cannot read plan file ".*missing\.json"/);
    expect(exitCode).toBe(2);
  });

  test('registers under an existing plan command', () => {
    const program = new Command('orchrm');
    const plan = program.command('plan');
    registerPlanCheckCommand(program);
    expect(program.commands.filter((command) => command.name() === 'plan')).toHaveLength(1);
    expect(plan.commands.map((command) => command.name())).toEqual(['check']);
  });
});
