import type { Command } from 'commander';
import { z } from 'zod';
import { InvalidInputError, isLoopbackHost, UserError, zodIssues } from '../../core/index.js';
import { createSimEnvironment, DEFAULT_EMBEDDING_MODEL, type FaultConfigInput, FaultConfigSchema, LatencyConfigSchema, loadScenario, type OpenAiCompatibleServer, type Scenario, scenarioNames, SIM_JUDGE_MODEL, startOpenAiCompatibleServer } from '../../sim/index.js';
import { processStreams, type CommandStreams } from '../command-streams.js';
import { addOptions, optionsFromSchema } from '../options-from-schema.js';
import { runAction } from '../run-action.js';
import { PortSchema, untilSignal } from '../server-process.js';
import { commandSummary } from '../command-catalog.js';

/** Where the sim commands write, and when `sim serve` stops; tests pass their own. */
export interface SimCommandIo extends CommandStreams {
  /** Resolves with a reason when the server should close. @default the first SIGINT or SIGTERM */
  untilShutdown: () => Promise<string>;
  /** Where `--token-env` is read. @default process.env */
  env?: Record<string, string | undefined>;
}

const processIo: SimCommandIo = { ...processStreams, untilShutdown: untilSignal, env: process.env };

const faultConfig = FaultConfigSchema.shape;
const latencyConfig = LatencyConfigSchema.shape;

const ScenariosFlagsSchema = z.object({ json: z.boolean().default(false).meta({ description: 'print [{"name", "description", "families": {family: share}}] as JSON' }) });
const scenariosFlags = optionsFromSchema(ScenariosFlagsSchema);

/** The flags of `orchrm sim serve`: the fault settings are the fault config's own fields (rule and default declared there). */
const ServeFlagsSchema = z.object({
  scenario: z.string().default('default').meta({ placeholder: 'name|path', description: 'built-in scenario name or scenario JSON file' }),
  port: PortSchema.default(8000).meta({ description: 'port to listen on (0 picks a free one)' }),
  host: z.string().default('127.0.0.1').meta({ placeholder: 'address', description: 'address to bind; anything but loopback exposes the server to the network and needs --token-env (or --allow-unauthenticated)' }),
  tokenEnv: z.string().optional().meta({
    placeholder: 'name',
    description: "environment variable holding a bearer token every request must send (as an OpenAI API key: set the provider config's apiKeyEnv to the same variable)",
  }),
  allowUnauthenticated: z.boolean().default(false).meta({ description: 'serve on a non-loopback --host without a token (only behind a proxy or firewall that authenticates every client)' }),
  rateLimitRate: faultConfig.rateLimitRate.meta({ placeholder: 'p', description: 'share of requests answered 429 with retry-after' }),
  serverErrorRate: faultConfig.serverErrorRate.meta({ placeholder: 'p', description: 'share of requests answered 500 with retry-after' }),
  retryAfterS: faultConfig.retryAfterS.meta({ placeholder: 's', description: 'retry-after sent with injected 429 and 500, in seconds' }),
  latencyMedianMs: latencyConfig.medianMs.meta({ placeholder: 'ms', description: 'median injected latency (lognormal), in milliseconds' }),
  latencyP99Ms: latencyConfig.p99Ms.meta({ placeholder: 'ms', description: '99th percentile of injected latency (0: constant median)' }),
  truncateRate: faultConfig.truncateRate.meta({ placeholder: 'p', description: 'share of responses cut mid-body' }),
  garbleRate: faultConfig.garbleRate.meta({ placeholder: 'p', description: 'share of responses whose body is not valid JSON' }),
  dropRate: faultConfig.dropRate.meta({ placeholder: 'p', description: 'share of connections dropped without an answer' }),
  hangRate: faultConfig.hangRate.meta({ placeholder: 'p', description: 'share of requests never answered, so the client times out' }),
  faultSeed: z.number().int().min(0).default(0).meta({ description: 'seed of the fault draws' }),
});
type ServeFlags = z.output<typeof ServeFlagsSchema>;
const serveFlags = optionsFromSchema(ServeFlagsSchema);

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
  addOptions(sim.command('scenarios').description('List the built-in scenarios, what they simulate and their family mix.'), scenariosFlags).action(
    runAction((raw: Record<string, unknown>) => listScenarios(io, scenariosFlags.parse(raw).json)),
  );

  addOptions(sim.command('serve').description("Serve a scenario's simulated models over the OpenAI API (chat completions, models, embeddings), optionally injecting faults."), serveFlags)
    .addHelpText(
      'after',
      '\nExample:\n  orchrm sim serve --scenario default --port 8000 --rate-limit-rate 0.1 --server-error-rate 0.1 --retry-after-s 0 --drop-rate 0.02',
    )
    .action(runAction((raw: Record<string, unknown>) => serve(io, serveFlags.parse(raw))));
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
  // Listen for SIGINT/SIGTERM before anything is printed, as `orchrm serve` does: a supervisor that
  // sends SIGTERM as soon as it reads the "listening on" line must get a clean shutdown.
  const shutdown = io.untilShutdown();
  const token = flags.tokenEnv === undefined ? undefined : (io.env ?? process.env)[flags.tokenEnv];
  if (flags.tokenEnv !== undefined && !token) {
    throw new UserError(`--token-env names ${flags.tokenEnv}, but that environment variable is not set or empty; export it (e.g. ${flags.tokenEnv}=$(openssl rand -hex 16)) or drop --token-env`);
  }
  if (!isLoopbackHost(flags.host)) {
    if (!token && !flags.allowUnauthenticated) {
      throw new UserError(
        `--host ${flags.host} is not loopback and no --token-env is set, so anyone who can reach that address could use the simulation server; set a token (--token-env, with the provider config's apiKeyEnv naming the same variable), keep --host 127.0.0.1, or, behind a proxy or firewall that authenticates every client, pass --allow-unauthenticated`,
      );
    }
    io.stderr.write(
      token
        ? `orchrm sim: warning: --host ${flags.host} is not loopback; the server speaks plain HTTP, so put it behind TLS before the token crosses a network you do not trust\n`
        : `orchrm sim: warning: --host ${flags.host} is not loopback and --allow-unauthenticated is set; anyone who can reach this address can use the simulation server\n`,
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
    allowUnauthenticated: flags.allowUnauthenticated,
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
  const reason = await shutdown;
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
