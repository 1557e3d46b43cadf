import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidInputError } from '../core/errors.js';
import { loadProviderConfig, parseProviderConfig } from './provider-config.js';

const models = { orchestrator: 'a', worker: 'b', judge: 'c' };

function issuesOf(value: unknown) {
  try {
    parseProviderConfig(value, 'provider.json');
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError);
    return (error as InvalidInputError).issues;
  }
  throw new Error('expected the config to be rejected');
}

describe('parseProviderConfig', () => {
  it('fills the documented defaults', () => {
    expect(parseProviderConfig({ type: 'openai', baseURL: 'https://api.openai.com/v1', models })).toEqual({
      type: 'openai',
      baseURL: 'https://api.openai.com/v1',
      apiKeyEnv: 'OPENAI_API_KEY',
      models,
      timeoutMs: 60_000,
      maxRetries: 2,
      concurrency: 8,
      structuredOutput: false,
      generation: {},
    });
  });

  it('requires baseURL, so a config never goes to OpenAI unasked', () => {
    expect(issuesOf({ type: 'openai', models })).toMatchInlineSnapshot(`
      [
        {
          "message": "baseURL is required: name the server, e.g. "http://127.0.0.1:8000/v1" (vLLM), "http://127.0.0.1:11434/v1" (Ollama) or "https://api.openai.com/v1" (OpenAI)",
          "path": "baseURL",
        },
      ]
    `);
  });

  it('names every bad field', () => {
    expect(
      issuesOf({ type: 'openai', baseURL: 'localhost:8000', apiKeyEnv: 'my key', models: { orchestrator: 'a', worker: '' }, timeoutMs: -1, maxRetries: 50 }),
    ).toMatchInlineSnapshot(`
      [
        {
          "message": "baseURL must be an http(s) URL such as http://127.0.0.1:8000/v1",
          "path": "baseURL",
        },
        {
          "message": "apiKeyEnv must be an environment variable name such as OPENAI_API_KEY",
          "path": "apiKeyEnv",
        },
        {
          "message": "name the model that runs sub-agents, as the server lists it at GET /v1/models",
          "path": "models.worker",
        },
        {
          "message": "name the model that judges, as the server lists it at GET /v1/models",
          "path": "models.judge",
        },
        {
          "message": "timeoutMs must be a positive number of milliseconds",
          "path": "timeoutMs",
        },
        {
          "message": "maxRetries above 10 only hides a broken server",
          "path": "maxRetries",
        },
      ]
    `);
  });

  it('rejects unknown fields, so typos are not silently ignored', () => {
    expect(issuesOf({ type: 'openai', models, baseUrl: 'http://127.0.0.1:8000/v1' })).toMatchInlineSnapshot(`
      [
        {
          "message": "baseURL is required: name the server, e.g. "http://127.0.0.1:8000/v1" (vLLM), "http://127.0.0.1:11434/v1" (Ollama) or "https://api.openai.com/v1" (OpenAI)",
          "path": "baseURL",
        },
        {
          "message": "Unrecognized key: "baseUrl"",
          "path": "",
        },
      ]
    `);
  });

  it('rejects an unknown provider type', () => {
    expect(issuesOf({ type: 'sim', models })).toMatchInlineSnapshot(`
      [
        {
          "message": "type must be one of: "openai"",
          "path": "type",
        },
      ]
    `);
  });
});

describe('loadProviderConfig', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'orchrm-config-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('reads a file and resolves a relative cache path against its folder', () => {
    const path = join(directory, 'provider.json');
    writeFileSync(path, JSON.stringify({ type: 'openai', baseURL: 'http://127.0.0.1:8000/v1', models, cache: { path: 'cache/responses.sqlite' } }));
    const config = loadProviderConfig(path);
    expect(config.cache?.path).toBe(join(directory, 'cache', 'responses.sqlite'));
    expect(config.baseURL).toBe('http://127.0.0.1:8000/v1');
  });

  it('names the file and the field', () => {
    const path = join(directory, 'provider.json');
    writeFileSync(path, JSON.stringify({ type: 'openai', baseURL: 'http://127.0.0.1:8000/v1', models, concurrency: 0 }));
    expect(() => loadProviderConfig(path)).toThrow(`${path} is invalid:\n  - concurrency: `);
  });

  it('reports a file that is not JSON or missing', () => {
    const path = join(directory, 'provider.json');
    writeFileSync(path, '{"type": "openai",');
    expect(() => loadProviderConfig(path)).toThrow(/provider\.json is invalid:\n {2}- \(root\): is not valid JSON/);
    expect(() => loadProviderConfig(join(directory, 'missing.json'))).toThrow(/missing\.json is invalid:\n {2}- \(root\): cannot be read/);
  });
});
