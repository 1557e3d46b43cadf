import type { Command } from 'commander';
import { z } from 'zod';
import { type EventSink, isLoopbackHost, type RewardModel, UserError } from '../../core/index.js';
import { loadRewardModel, type LoadRewardModelOptions } from '../../rm/index.js';
import {
  createRefusalLogger,
  createTaskExtractor,
  createUnscoredLogger,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_PLANS,
  startRewardServer,
  TASK_SOURCES,
  type RewardAppEvent,
  type RewardServer,
  type TaskSource,
} from '../../serve/index.js';
import { processStreams, type CommandStreams } from '../command-streams.js';
import { addOptions, optionsFromSchema } from '../options-from-schema.js';
import { runAction } from '../run-action.js';
import { PortSchema, untilSignal } from '../server-process.js';
import { commandSummary } from '../command-catalog.js';
import { embeddingFlags, featureOptionsFromFlags } from './embedding-flags.js';

/** Where `orchrm serve` writes, how it loads a model, and when it stops; tests pass their own. */
export interface ServeCommandIo extends CommandStreams {
  /** Resolves with a reason when the server should close. @default the first SIGINT or SIGTERM */
  untilShutdown: () => Promise<string>;
  /** Reads a model file, with the embeddings endpoint the flags give. @default `loadRewardModel` (rm/model-file.ts) */
  loadModel: (path: string, options: LoadRewardModelOptions) => Promise<RewardModel>;
  /** @default process.env */
  env: Record<string, string | undefined>;
}

/** The flags of `orchrm serve`, in the order the help lists them. */
const ServeFlagsSchema = z.object({
  model: z.string().meta({ placeholder: 'file', description: 'reward model file (.safetensors) written by orchrm rm train' }),
  ...embeddingFlags,
  port: PortSchema.default(5000).meta({ description: 'port to listen on (0 picks a free one)' }),
  host: z.string().default('127.0.0.1').meta({ placeholder: 'address', description: 'address to bind; anything but loopback exposes the server to the network and needs --token-env (or --allow-unauthenticated)' }),
  tokenEnv: z.string().optional().meta({ placeholder: 'name', description: 'environment variable holding a bearer token every request but GET /healthz must send' }),
  allowUnauthenticated: z.boolean().default(false).meta({ description: 'serve on a non-loopback --host without a token (only behind a proxy or firewall that authenticates every client)' }),
  maxPlans: z.number().int().min(1).default(DEFAULT_MAX_PLANS).meta({ description: 'most plans (or OpenRLHF queries) per request; 413 beyond' }),
  maxBodyBytes: z.number().int().min(1).default(DEFAULT_MAX_BODY_BYTES).meta({ description: 'largest request body in bytes (128 MiB fits 8192 OpenRLHF queries of ~10 KB); 413 beyond' }),
  maxBodyBytesInFlight: z.number().int().min(1).optional().meta({ description: 'request body bytes held at once across requests (each costs ~3x its size in memory); 503 beyond (default: twice --max-body-bytes, at least 256 MiB)' }),
  taskFrom: z.enum(TASK_SOURCES).default('auto').meta({
    placeholder: 'source',
    description: 'where /get_reward reads each task: auto (orchrm orchestrator prompt or chat template user turn, else the prompt), prompt (verbatim), label (the labels entry)',
  }),
  taskPattern: z.string().optional().meta({ placeholder: 'regex', description: 'regular expression whose group "task" (or first group) is the task inside each /get_reward prompt; overrides --task-from' }),
  logRefusals: z.boolean().default(true).meta({ description: 'do not write a stderr line for each refused request, nor about /get_reward queries scored as an empty plan (both are counted in /metrics either way)' }),
  requestTimeoutMs: z.number().int().min(1).default(30_000).meta({ placeholder: 'ms', description: 'time a client has to send headers and body; 408 beyond' }),
  closeTimeoutMs: z.number().int().min(0).default(10_000).meta({ placeholder: 'ms', description: 'on SIGINT/SIGTERM, how long in-flight requests may take to finish' }),
  json: z.boolean().default(false).meta({ description: 'print {"url", "host", "port", "model"} as JSON on stdout once listening' }),
});
type ServeFlags = z.output<typeof ServeFlagsSchema>;
const serveFlags = optionsFromSchema(ServeFlagsSchema);

/**
 * Adds `orchrm serve --model <file>`: the reward model behind the HTTP reward server
 * (`POST /v1/score`, OpenRLHF `POST /get_reward`, `GET /healthz`, `GET /metrics`) until SIGINT
 * or SIGTERM, then a graceful close. See docs/integrations.md for verl and OpenRLHF.
 */
export function registerServeCommand(program: Command, io: Partial<ServeCommandIo> = {}): void {
  const resolvedIo: ServeCommandIo = { ...processStreams, untilShutdown: untilSignal, loadModel: loadRewardModel, env: process.env, ...io };
  addOptions(program.command('serve').description(commandSummary('serve')), serveFlags)
    .addHelpText(
      'after',
      '\nExamples:\n  ORCHRM_REWARD_API_KEY=$(openssl rand -hex 16) orchrm serve --model rm.safetensors --port 5000 --token-env ORCHRM_REWARD_API_KEY\n' +
        '  orchrm serve --model rm.safetensors --port 5000   # then OpenRLHF: --reward.remote_url http://127.0.0.1:5000/get_reward (before 0.10.2: --remote_rm_url)\n' +
        '\nRefused requests are logged on stderr with their reason (OpenRLHF\'s client shows only "Bad Request") and counted in /metrics.',
    )
    .action(runAction((raw: Record<string, unknown>) => serve(resolvedIo, serveFlags.parse(raw))));
}

async function serve(io: ServeCommandIo, flags: ServeFlags): Promise<void> {
  // Listen for SIGINT/SIGTERM before anything is printed: a supervisor that sends SIGTERM as
  // soon as it reads the readiness line must get a clean shutdown, not the default kill
  // (issue 24: 7 of 10 such runs died without closing when the handlers came after that line).
  const shutdown = io.untilShutdown();
  const token = flags.tokenEnv === undefined ? undefined : io.env[flags.tokenEnv];
  if (flags.tokenEnv !== undefined && !token) {
    throw new UserError(`--token-env names ${flags.tokenEnv}, but that environment variable is not set or empty; export it (e.g. ${flags.tokenEnv}=$(openssl rand -hex 16)) or drop --token-env`);
  }
  // Checked before the model loads, so a bad pattern fails at once.
  createTaskExtractor({ source: flags.taskFrom, ...(flags.taskPattern !== undefined && { pattern: flags.taskPattern }) });
  if (!isLoopbackHost(flags.host)) {
    if (!token && !flags.allowUnauthenticated) {
      throw new UserError(
        `--host ${flags.host} is not loopback and no --token-env is set, so anyone who can reach that address could use the reward model; set a token (ORCHRM_REWARD_API_KEY=$(openssl rand -hex 16) orchrm serve ... --token-env ORCHRM_REWARD_API_KEY), keep --host 127.0.0.1, or, behind a proxy or firewall that authenticates every client, pass --allow-unauthenticated (docs/integrations.md, "Exposing the server")`,
      );
    }
    io.stderr.write(
      token
        ? `orchrm serve: warning: --host ${flags.host} is not loopback; the server speaks plain HTTP, so put it behind TLS before the token crosses a network you do not trust\n`
        : `orchrm serve: warning: --host ${flags.host} is not loopback and --allow-unauthenticated is set; anyone who can reach this address can use the reward model\n`,
    );
  }
  const model = await io.loadModel(flags.model, { features: featureOptionsFromFlags(flags, io.env) });
  const server = await startRewardServer({
    model,
    host: flags.host,
    port: flags.port,
    maxPlans: flags.maxPlans,
    maxBodyBytes: flags.maxBodyBytes,
    ...(flags.maxBodyBytesInFlight !== undefined && { maxBodyBytesInFlight: flags.maxBodyBytesInFlight }),
    allowUnauthenticated: flags.allowUnauthenticated,
    requestTimeoutMs: flags.requestTimeoutMs,
    closeTimeoutMs: flags.closeTimeoutMs,
    taskSource: flags.taskFrom,
    ...(flags.taskPattern !== undefined && { taskPattern: flags.taskPattern }),
    ...(flags.logRefusals && { events: serverLog(io) }),
    ...(token ? { token } : {}),
  });
  io.stderr.write(
    [
      `orchrm serve: ${model.name} from ${flags.model} at ${server.url}`,
      '  routes  POST /v1/score, POST /get_reward (OpenRLHF), GET /healthz, GET /metrics',
      `  auth    ${token ? `bearer token from $${flags.tokenEnv} (all routes but /healthz)` : 'none'}`,
      `  limits  ${flags.maxPlans} plans, ${flags.maxBodyBytes} bytes per request; ${flags.requestTimeoutMs} ms to send one`,
      `  tasks   /get_reward reads each task ${flags.taskPattern !== undefined ? `with --task-pattern ${JSON.stringify(flags.taskPattern)}` : TASK_FROM_TEXT[flags.taskFrom]}`,
      '  stop with Ctrl-C',
      '',
    ].join('\n'),
  );
  io.stdout.write(flags.json ? `${JSON.stringify({ url: server.url, host: server.host, port: server.port, model: model.name })}\n` : `listening on ${server.url}\n`);
  const reason = await shutdown;
  io.stderr.write(`orchrm serve: ${reason}; closing after in-flight requests finish (at most ${flags.closeTimeoutMs} ms)\n`);
  await server.close();
  io.stderr.write(`orchrm serve: ${describeTotals(server)}\n`);
}

/** One stderr line per refused request, and at most one per 10 s about queries scored as an empty plan. */
function serverLog(io: ServeCommandIo): EventSink<RewardAppEvent> {
  const write = (line: string) => io.stderr.write(`orchrm serve: ${line}`);
  const refusals = createRefusalLogger(write);
  const unscored = createUnscoredLogger(write);
  return (event) => (event.type === 'request-refused' ? refusals(event) : unscored(event));
}

const TASK_FROM_TEXT: Record<TaskSource, string> = {
  auto: "from the prompt (orchrm's orchestrator prompt or a chat template's user turn, else the prompt verbatim)",
  prompt: 'as the prompt, verbatim',
  label: 'from the labels entry',
};

function describeTotals(server: RewardServer): string {
  const { requests, clientErrors, serverErrors, plansScored, unscoredQueries } = server.app.metrics.totals();
  return `answered ${requests} request(s) (${clientErrors} 4xx, ${serverErrors} 5xx), scored ${plansScored} plan(s)${unscoredQueries > 0 ? `, ${unscoredQueries} of them /get_reward queries that could not be scored as sent (scored as an empty plan)` : ''}`;
}

