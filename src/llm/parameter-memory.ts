import { BadRequestError } from './provider-errors.js';

/** The field that carries a request's token limit. */
export type TokenLimitField = 'max_tokens' | 'max_completion_tokens';

/** Sampling parameters a model may refuse; a refused one is left out of that model's requests. */
export type OmittableParameter = 'temperature' | 'top_p' | 'reasoning_effort' | 'seed' | 'stop';

/** What a model is sent, as learned from what it refused. */
export interface ModelParameters {
  /** Where the token limit goes; `null` once the model refused both fields (no limit is sent). */
  tokenLimitField: TokenLimitField | null;
  /** Parameters left out of this model's requests. */
  omitted: ReadonlySet<OmittableParameter>;
}

/** The outcome of reading a rejected request. */
export interface ParameterLesson {
  /** True when the request should be sent again in the model's current form. */
  retry: boolean;
  /** Said once per model and parameter, the first time it is learned. */
  warning?: string;
}

/** Remembers, per model, which request parameters the server refused and what replaces them. */
export interface ParameterMemory {
  /** The current rules for `model`. */
  rulesFor(model: string): ModelParameters;
  /**
   * Reads a 400 that names a parameter the request carried (`sent` holds the body's keys) and
   * changes what `model` is sent: `max_tokens` becomes `max_completion_tokens` and back, a refused
   * `temperature`, `seed` or `stop` is left out.
   */
  learn(model: string, error: unknown, sent: ReadonlySet<string>): ParameterLesson;
}

const OMITTABLE: readonly OmittableParameter[] = ['temperature', 'top_p', 'reasoning_effort', 'seed', 'stop'];
const KNOWN = ['max_tokens', 'max_completion_tokens', ...OMITTABLE] as const;
type KnownParameter = (typeof KNOWN)[number];

/**
 * The parameter a 400 is about. OpenAI names it in `error.param` (`{"message": "Unsupported
 * parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens'
 * instead.", "type": "invalid_request_error", "param": "max_tokens", "code":
 * "unsupported_parameter"}`; for temperature `"Unsupported value: 'temperature' does not support
 * 0 with this model. Only the default (1) value is supported."`, `"code": "unsupported_value"`).
 * Proxies and older Azure deployments only say it in the message ("Unrecognized request argument
 * supplied: max_completion_tokens"), so a quoted or named known parameter in the message counts
 * too, and only when the request carried it.
 */
export function refusedParameter(error: unknown, sent: ReadonlySet<string>): KnownParameter | undefined {
  if (!(error instanceof BadRequestError)) return undefined;
  if (error.param !== undefined) {
    const named = KNOWN.find((name) => name === error.param);
    return named !== undefined && sent.has(named) ? named : undefined;
  }
  const message = error.message;
  for (const name of KNOWN) {
    if (!sent.has(name)) continue;
    const quoted = new RegExp(`['"\`]${name}['"\`]`).test(message);
    const unrecognized = new RegExp(`(unrecognized|unsupported|unknown)[^.]*\\b${name}\\b`, 'i').test(message);
    if (quoted || unrecognized) return name;
  }
  return undefined;
}

/**
 * A memory for one provider (one server). `initialTokenLimitField` is what a model is sent until
 * it refuses it: OpenAI's own API takes `max_completion_tokens` for every model and its reasoning
 * models (o-series, gpt-5) refuse `max_tokens`; vLLM, Ollama and llama.cpp server read `max_tokens`.
 *
 * @example
 * const memory = createParameterMemory('max_tokens');
 * memory.learn('gpt-5-mini', error, new Set(['model', 'messages', 'max_tokens'])); // { retry: true, warning: ... }
 * memory.rulesFor('gpt-5-mini').tokenLimitField; // 'max_completion_tokens'
 */
export function createParameterMemory(initialTokenLimitField: TokenLimitField): ParameterMemory {
  const byModel = new Map<string, { tokenLimitField: TokenLimitField | null; refusedTokenFields: Set<TokenLimitField>; omitted: Set<OmittableParameter> }>();
  const entry = (model: string) => {
    let rules = byModel.get(model);
    if (rules === undefined) {
      rules = { tokenLimitField: initialTokenLimitField, refusedTokenFields: new Set(), omitted: new Set() };
      byModel.set(model, rules);
    }
    return rules;
  };
  return {
    rulesFor: (model) => entry(model),
    learn(model, error, sent) {
      const parameter = refusedParameter(error, sent);
      if (parameter === undefined) return { retry: false };
      const rules = entry(model);
      const reason = error instanceof Error ? error.message : String(error);
      if (parameter === 'max_tokens' || parameter === 'max_completion_tokens') {
        // Several requests may fail at once; only the first one to learn it warns.
        const known = rules.refusedTokenFields.has(parameter);
        rules.refusedTokenFields.add(parameter);
        const other: TokenLimitField = parameter === 'max_tokens' ? 'max_completion_tokens' : 'max_tokens';
        rules.tokenLimitField = rules.refusedTokenFields.has(other) ? null : other;
        if (known) return { retry: true };
        const instead = rules.tokenLimitField === null ? 'no token limit' : `"${rules.tokenLimitField}"`;
        return { retry: true, warning: `model ${model} refused "${parameter}" (${reason}); sending ${instead} to it from now on` };
      }
      const known = rules.omitted.has(parameter);
      rules.omitted.add(parameter);
      if (known) return { retry: true };
      return { retry: true, warning: `model ${model} refused "${parameter}" (${reason}); leaving it out of its requests from now on (the server's default applies)` };
    },
  };
}
