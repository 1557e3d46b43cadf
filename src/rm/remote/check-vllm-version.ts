import { UserError } from '../../core/index.js';

/**
 * The first vLLM release whose pooling endpoints (`/classify`, `/pooling`) read
 * `use_activation`. 0.10.0 to 0.11.0 took `activation` (and `softmax` for reward models)
 * instead, earlier releases no per-request switch at all; all of them ignore an unknown field,
 * so they return sigmoid or softmax outputs (a constant 1.0 for a one-label head) where raw
 * rewards were asked for.
 */
export const MIN_VLLM_VERSION = '0.11.1';

/** The input of the `use_activation` probe a server of unknown version gets (`checkActivationSwitch`). */
export const ACTIVATION_PROBE_TEXT = 'orchrm use_activation probe';

/** What the version probe found: the server's version, or why it is unknown. */
export type VllmVersionProbe = { version: string } | { version: undefined; reason: string };

/**
 * Asks the vLLM server behind an endpoint URL for its version (`GET <base>/version`, which
 * vLLM's OpenAI-compatible server answers with `{"version": "0.11.1"}`), and throws a UserError
 * when it is older than `MIN_VLLM_VERSION`. A server without the route (a proxy, another
 * implementation) is not refused here: its replies are checked instead.
 *
 * @example await checkVllmVersion('http://127.0.0.1:8000/classify', { fetch, timeoutMs: 5000 }) // { version: '0.13.0' }
 */
export async function checkVllmVersion(endpointUrl: string, options: { fetch: typeof fetch; timeoutMs: number; headers?: Record<string, string> }): Promise<VllmVersionProbe> {
  // `version` replaces the endpoint's last path segment, so a path prefix (a proxy's) is kept.
  const versionUrl = new URL('version', endpointUrl).toString();
  let version: unknown;
  try {
    const response = await options.fetch(versionUrl, { headers: { accept: 'application/json', ...options.headers }, signal: AbortSignal.timeout(options.timeoutMs) });
    if (!response.ok) return { version: undefined, reason: `${versionUrl} answered ${response.status}` };
    version = ((await response.json()) as { version?: unknown }).version;
  } catch (error) {
    return { version: undefined, reason: `${versionUrl} failed (${(error as Error).message})` };
  }
  if (typeof version !== 'string' || !/^v?\d/.test(version)) return { version: undefined, reason: `${versionUrl} named no release number` };
  if (compareVersions(version, MIN_VLLM_VERSION) < 0) {
    throw new UserError(
      `the vLLM server at ${new URL('.', endpointUrl).toString()} is version ${version}, older than ${MIN_VLLM_VERSION}: it ignores "use_activation": false and returns ` +
        'sigmoid or softmax outputs (a constant 1.0 for a one-label reward head) instead of raw rewards, which would tie every plan. ' +
        `Upgrade vLLM to ${MIN_VLLM_VERSION} or later (pip install -U vllm), or serve the model with another reward server`,
    );
  }
  return { version };
}

/**
 * For a server that names no version (`checkVllmVersion` found no release number): asks for one
 * input's output twice, with `"use_activation": true` and with `false`. vLLM 0.11.1 and later
 * return the activated output for one and the raw output for the other; 0.10.0 to 0.11.0 ignore
 * the field and return the sigmoid (or softmax) output both times, which would be accepted as
 * rewards otherwise (a sigmoid lies in (0, 1), as raw rewards may). Throws a UserError when the
 * two outputs are equal. A probe that fails or reads no number proves nothing and is ignored:
 * the replies are checked instead (`refuseActivatedOutputs`).
 *
 * @example await checkActivationSwitch(url, { model: 'rm', input: ['probe'] }, (reply) => reply.data[0].probs[0], { fetch, timeoutMs: 5000 })
 */
export async function checkActivationSwitch(
  endpointUrl: string,
  body: Record<string, unknown>,
  readOutput: (reply: unknown) => number | undefined,
  options: { fetch: typeof fetch; timeoutMs: number; headers?: Record<string, string>; unknownBecause: string },
): Promise<void> {
  const outputWith = async (useActivation: boolean): Promise<number | undefined> => {
    try {
      const response = await options.fetch(endpointUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...options.headers },
        body: JSON.stringify({ ...body, use_activation: useActivation }),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      if (!response.ok) return undefined;
      return readOutput(await response.json());
    } catch {
      return undefined;
    }
  };
  const [activated, raw] = [await outputWith(true), await outputWith(false)];
  if (activated === undefined || raw === undefined || activated !== raw) return;
  throw new UserError(
    `the server at ${endpointUrl} names no vLLM version (${options.unknownBecause}) and returns the same output (${raw}) with "use_activation": true and false: ` +
      `it ignores the field, as vLLM before ${MIN_VLLM_VERSION} does, so its outputs are sigmoid or softmax probabilities, not rewards. ` +
      `Upgrade vLLM to ${MIN_VLLM_VERSION} or later (pip install -U vllm), or serve the model with another reward server`,
  );
}

/**
 * Compares release numbers by their first three numeric parts (`0.11.1rc2.dev3` counts as
 * 0.11.1, since the pre-releases of a version already carry its features); -1, 0 or 1.
 */
export function compareVersions(a: string, b: string): number {
  const parts = (version: string) => (/^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(version.trim()) ?? []).slice(1, 4).map((part) => Number(part ?? 0));
  const [left, right] = [parts(a), parts(b)];
  for (let index = 0; index < 3; index++) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}
