import type { Command } from 'commander';
import { z } from 'zod';
import { InvalidInputError, isLoopbackHost, UserError, zodIssues } from '../../core/index.js';
import { createSimEnvironment, DEFAULT_EMBEDDING_MODEL, type FaultConfigInput, FaultConfigSchema, loadScenario, type OpenAiCompatibleServer, type Scenario, scenarioNames, SIM_JUDGE_MODEL, startOpenAiCompatibleServer } from '../../sim/index.js';
import { processStreams, type CommandStreams } from '../command-streams.js';
import { parseFlagValue, parseIntegerOption } from '../options-from-schema.js';
import { runAction } from '../run-action.js';
import { parsePort, untilSignal } from '../server-process.js';
import { commandSummary } from '../command-catalog.js';

/** Where the sim commands write, and when `sim serve` stops; tests pass their own. */
export interface SimCommandIo extends CommandStreams {
  /** Resolves with a reason when the server should close. @default the first SIGINT or SIGTERM */
  untilShutdown: () => Promise<string>;
  /** Where `--token-env` is read. @default process.env */
  env?: Record<string, string | undefined>;
}

const processIo: SimCommandIo = { ...processStreams, untilShutdown: untilSignal, env: process.env };

interface ServeFlags {
  scenario: string;
  port: number;
  host: string;
  rateLimitRate: number;
  serverErrorRate: number;
  retryAfterS: number;
  latencyMedianMs: number;
  latencyP99Ms: number;
  truncateRate: number;
  garbleRate: number;
  dropRate: number;
  hangRate: number;
  faultSeed: number;
  tokenEnv?: string;
}

/**
 * The `orchrm sim` command group, created on first use, so other modules can add subcommands
 * (`simCommand(program).command('calibrate')...`) before or after `registerSimCommand`.
 */
export function simCommand(program: Command): Command {
  return (
    program.commands.find((command) => command.name() === 'sim') ??
    program.command('sim').description(commandSummary('sim'))
  );
}

/**
 * Adds `orchrm sim scenarios [--json]` (the built-in scenarios with their family mix) and
 * `orchrm sim serve` (the scenario's simulated models behind an OpenAI-compatible HTTP server,
 * with optional fault injection) to the `sim` group.
 */
export function registerSimCommand(program: Command, io: SimCommandIo = processIo): void {
  const sim = simCommand(program);
  sim
    .command('scenarios')
    .description('List the built-in scenarios, what they simulate and their family mix.')
    .option('--json', 'print [{"name", "description", "families": {family: share}}] as JSON', false)
    .action(runAction((flags: { json: boolean }) => listScenarios(io, flags.json)));

  sim
    .command('serve')
    .description('Serve a scenario\'s simulated models over the OpenAI API (chat completions, models, embeddings), optionally injecting faults.')
    .option('--scenario <name|path>', 'built-in scenario name or scenario JSON file', 'default')
    .option('--port <n>', 'port to listen on (0 picks a free one)', parsePort, 8000)
    .option('--host <address>', 'address to bind; anything but loopback exposes the server to the network (use --token-env then)', '127.0.0.1')
    .option('--token-env <name>', 'environment variable holding a bearer token every request must send (as an OpenAI API key: set the provider config\'s apiKeyEnv to the same variable)')
    .option('--rate-limit-rate <p>', 'share of requests answered 429 with retry-after', parseRate('--rate-limit-rate'), 0)
    .option('--server-error-rate <p>', 'share of requests answered 500 with retry-after', parseRate('--server-error-rate'), 0)
    .option('--retry-after-s <s>', 'retry-after sent with injected 429 and 500, in seconds', parseNonNegative('--retry-after-s'), 1)
    .option('--latency-median-ms <ms>', 'median injected latency (lognormal), in milliseconds', parseNonNegative('--latency-median-ms'), 0)
    .option('--latency-p99-ms <ms>', '99th percentile of injected latency (0: constant median)', parseNonNegative('--latency-p99-ms'), 0)
    .option('--truncate-rate <p>', 'share of responses cut mid-body', parseRate('--truncate-rate'), 0)
    .option('--garble-rate <p>', 'share of responses whose body is not valid JSON', parseRate('--garble-rate'), 0)
    .option('--drop-rate <p>', 'share of connections dropped without an answer', parseRate('--drop-rate'), 0)
    .option('--hang-rate <p>', 'share of requests never answered, so the client times out', parseRate('--hang-rate'), 0)
    .option('--fault-seed <n>', 'seed of the fault draws', parseIntegerOption('--fault-seed', 0), 0)
    .addHelpText(
      'after',
      '\nExample:\n  orchrm sim serve --scenario default --port 8000 --rate-limit-rate 0.1 --server-error-rate 0.1 --retry-after-s 0 --drop-rate 0.02',
    )
    .action(runAction((flags: ServeFlags) => serve(io, flags)));
}

function listScenarios(io: SimCommandIo, json: boolean): void {
  const rows = scenarioNames().map((name) => {
    const scenario = loadScenario(name);
    return { name, description: scenario.description, families: familyShares(scenario) };
  });
  if (json) {
    io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return;
  }
  const width = Math.max(...rows.map((row) => row.name.length));
  for (const row of rows) {
    const mix = Object.entries(row.families)
      .map(([family, share]) => `${family} ${Math.round(share * 100)}%`)
      .join(', ');
    io.stdout.write(`${row.name.padEnd(width)}  ${mix}\n${' '.repeat(width)}  ${row.description}\n`);
  }
}

/** Each family's share of generated tasks (weights normalised to sum to 1). */
function familyShares(scenario: Scenario): Record<string, number> {
  const weights = Object.entries(scenario.families).flatMap(([family, config]) => (config && config.weight > 0 ? [[family, config.weight] as const] : []));
  const total = weights.reduce((sum, [, weight]) => sum + weight, 0);
  return Object.fromEntries(weights.map(([family, weight]) => [family, weight / total]));
}

async function serve(io: SimCommandIo, flags: ServeFlags): Promise<void> {
  const token = flags.tokenEnv === undefined ? undefined : (io.env ?? process.env)[flags.tokenEnv];
  if (flags.tokenEnv !== undefined && !token) {
    throw new UserError(`--token-env names ${flags.tokenEnv}, but that environment variable is not set or empty; export it (e.g. ${flags.tokenEnv}=$(openssl rand -hex 16)) or drop --token-env`);
  }
  if (!isLoopbackHost(flags.host)) {
    io.stderr.write(
      token
        ? `orchrm sim: warning: --host ${flags.host} is not loopback; the server speaks plain HTTP, so put it behind TLS before the token crosses a network you do not trust\n`
        : `orchrm sim: warning: --host ${flags.host} is not loopback and no --token-env is set; anyone who can reach this address can use the simulation server\n`,
    );
  }
  const scenario = loadScenario(flags.scenario);
  const faults: FaultConfigInput = {
    rateLimitRate: flags.rateLimitRate,
    serverErrorRate: flags.serverErrorRate,
    retryAfterS: flags.retryAfterS,
    latencyMs: { medianMs: flags.latencyMedianMs, p99Ms: flags.latencyP99Ms },
    truncateRate: flags.truncateRate,
    garbleRate: flags.garbleRate,
    dropRate: flags.dropRate,
    hangRate: flags.hangRate,
  };
  // Checked before the (slower) environment is built, so a bad flag fails at once.
  const checked = FaultConfigSchema.safeParse(faults);
  if (!checked.success) throw new InvalidInputError('the fault flags', zodIssues(checked.error));
  const environment = await createSimEnvironment(scenario);
  // The judge model is served too, so a provider config's judge slot can name it (sim-judge* is routed to the judge).
  const models = [...environment.models(), SIM_JUDGE_MODEL];
  const server = await startOpenAiCompatibleServer({
    provider: environment.provider,
    models,
    host: flags.host,
    port: flags.port,
    faults,
    faultSeed: flags.faultSeed,
    ...(token !== undefined && { bearerToken: token }),
  });
  io.stderr.write(
    [
      `orchrm sim: scenario ${scenario.name} (seed ${scenario.seed}) served at ${server.url}`,
      `  chat models  ${models.join(', ')}`,
      `  embeddings   ${DEFAULT_EMBEDDING_MODEL}`,
      `  faults       ${describeFaults(faults, flags.faultSeed)}`,
      `  auth         ${token === undefined ? 'none' : `bearer token from ${flags.tokenEnv}`}`,
      '  stop with Ctrl-C',
      '',
    ].join('\n'),
  );
  io.stdout.write(`listening on ${server.url}\n`);
  const reason = await io.untilShutdown();
  io.stderr.write(`orchrm sim: ${reason}; closing after in-flight requests finish\n`);
  await server.close();
  io.stderr.write(`orchrm sim: ${describeStats(server)}\n`);
}

function describeFaults(faults: FaultConfigInput, seed: number): string {
  const parts: string[] = [];
  const percent = (rate: number | undefined) => `${((rate ?? 0) * 100).toFixed(1)}%`;
  if (faults.rateLimitRate) parts.push(`429 ${percent(faults.rateLimitRate)}`);
  if (faults.serverErrorRate) parts.push(`500 ${percent(faults.serverErrorRate)}`);
  if (faults.rateLimitRate || faults.serverErrorRate) parts.push(`retry-after ${faults.retryAfterS} s`);
  if (faults.truncateRate) parts.push(`truncated ${percent(faults.truncateRate)}`);
  if (faults.garbleRate) parts.push(`garbled ${percent(faults.garbleRate)}`);
  if (faults.dropRate) parts.push(`dropped ${percent(faults.dropRate)}`);
  if (faults.hangRate) parts.push(`never answered ${percent(faults.hangRate)}`);
  if (faults.latencyMs?.medianMs) parts.push(`latency median ${faults.latencyMs.medianMs} ms, p99 ${faults.latencyMs.p99Ms || faults.latencyMs.medianMs} ms`);
  return parts.length === 0 ? 'none' : `${parts.join(', ')} (seed ${seed})`;
}

function describeStats(server: OpenAiCompatibleServer): string {
  const { requests, invalid, failed, faults } = server.stats;
  const injected = Object.entries(faults)
    .filter(([, count]) => count > 0)
    .map(([kind, count]) => `${kind} ${count}`)
    .join(', ');
  return `served ${requests.chatCompletions} chat completion(s), ${requests.embeddings} embedding request(s); ${invalid} invalid, ${failed} failed; faults injected: ${injected || 'none'}`;
}

function parseRate(flag: string): (value: string) => number {
  return parseFlagValue(flag, z.number().min(0).max(1));
}

function parseNonNegative(flag: string): (value: string) => number {
  return parseFlagValue(flag, z.number().min(0));
}
