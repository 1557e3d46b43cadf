import { describe, expect, it } from 'vitest';
import { createParameterMemory, refusedParameter } from './parameter-memory.js';
import { BadRequestError, ServerError } from './provider-errors.js';

const sent = (...keys: string[]) => new Set(['model', 'messages', ...keys]);
const openAi = (message: string, param: string, code: string) => new BadRequestError(`127.0.0.1 answered 400 (${message})`, { status: 400, param, code });
const maxTokensRefused = openAi("Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", 'max_tokens', 'unsupported_parameter');

describe('refusedParameter', () => {
  it("reads OpenAI's error.param, and the message when a proxy sends no param", () => {
    expect(refusedParameter(maxTokensRefused, sent('max_tokens'))).toBe('max_tokens');
    expect(refusedParameter(new BadRequestError('answered 400 (Unrecognized request argument supplied: max_completion_tokens)'), sent('max_completion_tokens'))).toBe('max_completion_tokens');
    expect(refusedParameter(new BadRequestError("answered 400 (Unsupported value: 'temperature' does not support 0 with this model.)"), sent('temperature'))).toBe('temperature');
  });

  it('ignores parameters the request did not carry, unknown parameters and other errors', () => {
    expect(refusedParameter(maxTokensRefused, sent('max_completion_tokens'))).toBeUndefined();
    expect(refusedParameter(openAi("Unsupported parameter: 'logit_bias'", 'logit_bias', 'unsupported_parameter'), sent('logit_bias'))).toBeUndefined();
    expect(refusedParameter(new BadRequestError('answered 400 (model "x" does not exist)'), sent('max_tokens', 'temperature'))).toBeUndefined();
    expect(refusedParameter(new ServerError("answered 500 ('max_tokens')"), sent('max_tokens'))).toBeUndefined();
  });
});

describe('createParameterMemory', () => {
  it('switches the token field, then sends no limit when both are refused; warns once per parameter', () => {
    const memory = createParameterMemory('max_tokens');
    expect(memory.rulesFor('gpt-5-mini').tokenLimitField).toBe('max_tokens');
    const first = memory.learn('gpt-5-mini', maxTokensRefused, sent('max_tokens'));
    expect(first.retry).toBe(true);
    expect(first.warning).toMatch(/^model gpt-5-mini refused "max_tokens" \(.*\); sending "max_completion_tokens" to it from now on$/);
    // A request sent before the lesson fails the same way: it is re-sent, without a second warning.
    expect(memory.learn('gpt-5-mini', maxTokensRefused, sent('max_tokens'))).toEqual({ retry: true });
    expect(memory.rulesFor('gpt-5-mini').tokenLimitField).toBe('max_completion_tokens');
    const unknownField = new BadRequestError('answered 400 (Unrecognized request argument supplied: max_completion_tokens)');
    expect(memory.learn('gpt-5-mini', unknownField, sent('max_completion_tokens')).warning).toMatch(/sending no token limit/);
    expect(memory.rulesFor('gpt-5-mini').tokenLimitField).toBeNull();
    // Other models keep their own rules.
    expect(memory.rulesFor('qwen').tokenLimitField).toBe('max_tokens');
  });

  it('leaves out a refused temperature, seed or stop', () => {
    const memory = createParameterMemory('max_completion_tokens');
    const temperature = openAi("Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.", 'temperature', 'unsupported_value');
    expect(memory.learn('o3', temperature, sent('temperature')).warning).toMatch(/refused "temperature".*leaving it out of its requests/);
    expect(memory.learn('o3', openAi("Unsupported parameter: 'stop' is not supported with this model.", 'stop', 'unsupported_parameter'), sent('stop')).retry).toBe(true);
    expect([...memory.rulesFor('o3').omitted]).toEqual(['temperature', 'stop']);
    expect(memory.learn('o3', new BadRequestError('answered 400 (context length exceeded)'), sent('seed'))).toEqual({ retry: false });
  });
});
