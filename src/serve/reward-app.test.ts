import { describe, expect, it } from 'vitest';
import { defaultRewardPrompt } from '../rm/remote/index.js';
import { HttpError } from '../core/index.js';
import { createRewardApp, type AppRequest } from './reward-app.js';
import { createBrokenRewardModel, createLengthRewardModel } from './test-fixtures/fake-reward-models.js';

const post = (path: string, body: unknown, headers: Record<string, string> = {}): AppRequest => ({
  method: 'POST',
  path,
  headers,
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

async function call(app: ReturnType<typeof createRewardApp>, request: AppRequest) {
  const response = await app.request(request);
  return { status: response.status, headers: response.headers, json: response.headers['content-type']?.startsWith('application/json') ? JSON.parse(response.body) : response.body };
}

describe('POST /v1/score', () => {
  it('scores every plan for the task, in order', async () => {
    const model = createLengthRewardModel();
    const app = createRewardApp({ model });
    const response = await call(app, post('/v1/score', { task: 'abcdefghij', plans: ['xx', 'xxxxx', ''] }));
    expect(response).toMatchObject({ status: 200, json: { scores: [1, 4, -1] } });
    expect(model.calls).toEqual([{ task: 'abcdefghij', plans: ['xx', 'xxxxx', ''] }]);
  });

  it('answers an empty batch without calling the model', async () => {
    const model = createLengthRewardModel();
    const response = await call(createRewardApp({ model }), post('/v1/score', { task: 't', plans: [] }));
    expect(response).toMatchObject({ status: 200, json: { scores: [] } });
    expect(model.calls).toHaveLength(0);
  });

  it('ignores unknown fields and a query string', async () => {
    const app = createRewardApp({ model: createLengthRewardModel() });
    const response = await call(app, post('/v1/score?verbose=1', { task: '', plans: ['abc'], model: 'whatever' }));
    expect(response).toMatchObject({ status: 200, json: { scores: [3] } });
  });
});

describe('POST /get_reward (OpenRLHF)', () => {
  it('scores the part of each query after its prompt, with the prompt as the task, one model call per distinct task', async () => {
    const model = createLengthRewardModel();
    const app = createRewardApp({ model });
    const task = defaultRewardPrompt('0123456789');
    const response = await call(app, post('/get_reward', { query: [`${task}abc`, 'otherxy', `${task}abcdef`], prompts: [task, 'other', task], labels: ['4', '5', '4'] }));
    expect(response).toEqual({
      status: 200,
      headers: expect.any(Object),
      json: { rewards: [2, 1.5, 5], scores: [2, 1.5, 5], extra_logs: { plan_chars: [3, 2, 6], unscored: [0, 0, 0] }, unscored: [] },
    });
    expect(model.calls).toEqual([
      { task: '0123456789', plans: ['abc', 'abcdef'] },
      { task: 'other', plans: ['xy'] },
    ]);
  });

  it('scores the whole query as the plan, with an empty task, when there is no prompt or an empty one', async () => {
    const model = createLengthRewardModel();
    const app = createRewardApp({ model });
    expect(await call(app, post('/get_reward', { query: ['{"nodes":[]}'] }))).toMatchObject({ status: 200, json: { rewards: [12] } });
    expect(await call(app, post('/get_reward', { query: ['abc'], prompts: [''] }))).toMatchObject({ status: 200, json: { rewards: [3] } });
    expect(model.calls).toEqual([
      { task: '', plans: ['{"nodes":[]}'] },
      { task: '', plans: ['abc'] },
    ]);
  });

  it('scores a query that does not hold its prompt as an empty plan, and counts and names it, instead of refusing the batch (issue 24)', async () => {
    const events: unknown[] = [];
    const app = createRewardApp({ model: createLengthRewardModel(), events: (event) => events.push(event) });
    const response = await call(app, { ...post('/get_reward', { query: ['P1 plan', 'Q2 plan'], prompts: ['P1 ', 'P2 '] }), remoteAddress: '10.0.0.7' });
    expect(response.status).toBe(200);
    // The length model scores plan length minus a tenth of the task's; an empty plan for the task "P2 " scores -0.3.
    expect(response.json).toMatchObject({ rewards: [4 - 0.3, -0.3], unscored: [{ index: 1, code: 'query_prompt_mismatch' }], extra_logs: { plan_chars: [4, 0], unscored: [0, 1] } });
    expect(events).toEqual([
      { type: 'queries-unscored', queries: 2, remoteAddress: '10.0.0.7', unscored: [{ index: 1, code: 'query_prompt_mismatch', message: expect.stringContaining('query[1] does not start with prompts[1], nor with an end of it') }] },
    ]);
    expect(app.metrics.unscoredCount('query_prompt_mismatch')).toBe(1);
    expect(app.metrics.requestCount('/get_reward', 400)).toBe(0);
    const lines = (await app.request({ method: 'GET', path: '/metrics' })).body.split('\n');
    expect(lines).toContain('orchrm_unscored_queries_total{code="query_prompt_mismatch"} 1');
  });

  it('scores a query whose task cannot be read (--task-from label, no label) as an empty plan, and counts it', async () => {
    const app = createRewardApp({ model: createLengthRewardModel(), taskSource: 'label' });
    const response = await call(app, post('/get_reward', { query: ['P plan', 'P other'], prompts: ['P ', 'P '], labels: ['the task', 7] }));
    expect(response.json).toMatchObject({ rewards: [4 - 0.8, 0], unscored: [{ index: 1, code: 'task_not_found' }] });
    expect(response.json.unscored).toHaveLength(1);
    expect(app.metrics.unscoredCount('task_not_found')).toBe(1);
  });

  it('finds the plan in a query whose prompt was cut from the left or re-spaced on decoding (what OpenRLHF sends in real runs)', async () => {
    const prompt = '<|start_header_id|>system<|end_header_id|>\n\nYou plan. Write one plan for the task below.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nTask:\nWhat is 2+2?\n\nWrite the plan.<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n';
    const plan = '<agent><agent_id>A</agent_id></agent>';
    const app = createRewardApp({ model: createLengthRewardModel() });
    const queries = [
      prompt + plan + '<|eot_id|>',
      // Left-truncated to fit max_len (OpenRLHF 0.9.1+ keeps the prompt's last tokens), a character broken at the cut.
      `\uFFFD${prompt.slice(60)}${plan}<|eot_id|>`,
      // Decoded with a space after each special token and the blank lines collapsed.
      prompt.replaceAll('|>', '|> ').replaceAll('\n\n', '\n') + plan + '<|eot_id|>',
    ];
    const response = await call(app, post('/get_reward', { query: queries, prompts: queries.map(() => prompt) }));
    const expected = plan.length - 'What is 2+2?'.length / 10;
    expect(response.json).toMatchObject({ rewards: [expected, expected, expected], unscored: [] });
    expect(app.metrics.realignedCount()).toBe(2);
    // A query holding only the prompt's last few characters is not cut there.
    expect((await call(app, post('/get_reward', { query: ['plan.<|eot_id|>' + plan], prompts: [prompt] }))).json).toMatchObject({ unscored: [{ index: 0, code: 'query_prompt_mismatch' }] });
  });

  it('rejects prompts or labels whose count differs from the queries', async () => {
    const app = createRewardApp({ model: createLengthRewardModel() });
    const prompts = await call(app, post('/get_reward', { query: ['a', 'b'], prompts: ['a'] }));
    expect(prompts.json.error).toEqual({ code: 'length_mismatch', field: 'prompts', message: 'prompts has 1 entries but query has 2; send one per query' });
    const labels = await call(app, post('/get_reward', { query: ['a'], prompts: [''], labels: [] }));
    expect(labels.json.error).toMatchObject({ code: 'length_mismatch', field: 'labels' });
  });
});

describe('bad input', () => {
  const app = createRewardApp({ model: createLengthRewardModel(), maxPlans: 3 });

  it.each([
    ['invalid JSON', '{"task": "t", "plans": [', 'invalid_json', undefined],
    ['an empty body', '', 'empty_body', undefined],
    ['an array body', '[1, 2]', 'invalid_body', undefined],
    ['a missing task', { plans: ['a'] }, 'invalid_field', 'task'],
    ['a number task', { task: 7, plans: ['a'] }, 'invalid_field', 'task'],
    ['plans not an array', { task: 't', plans: 'a' }, 'invalid_field', 'plans'],
    ['a plan that is not a string', { task: 't', plans: ['a', { nodes: [] }] }, 'invalid_field', 'plans[1]'],
  ])('answers 400 to %s', async (_name, body, code, field) => {
    const response = await call(app, post('/v1/score', body));
    expect(response.status).toBe(400);
    expect(response.json.error.code).toBe(code);
    expect(response.json.error.field).toBe(field);
    if (field) expect(response.json.error.message).toMatch(new RegExp(`^${field.replace(/[[\]]/g, '\\$&')}: `));
  });

  it('names the field of a wrong type in /get_reward', async () => {
    const response = await call(app, post('/get_reward', { query: ['a', 3] }));
    expect(response.json.error).toEqual({ code: 'invalid_field', field: 'query[1]', message: 'query[1]: each query must be a string: the prompt followed by the plan' });
  });

  it('answers 413 to too many plans or queries, before looking at them', async () => {
    const plans = await call(app, post('/v1/score', { task: 't', plans: [1, 2, 3, 4] }));
    expect(plans.status).toBe(413);
    expect(plans.json.error).toMatchObject({ code: 'too_many_plans', field: 'plans' });
    expect(plans.json.error.message).toContain('plans holds 4 entries but this server scores at most 3 per request');
    const queries = await call(app, post('/get_reward', { query: ['a', 'b', 'c', 'd'] }));
    expect(queries).toMatchObject({ status: 413, json: { error: { field: 'query' } } });
  });

  it('answers 404 to an unknown path and 405 (with allow) to a wrong method', async () => {
    expect((await call(app, { method: 'GET', path: '/v1/chat/completions' })).status).toBe(404);
    const wrongMethod = await call(app, { method: 'GET', path: '/v1/score' });
    expect(wrongMethod).toMatchObject({ status: 405, headers: { allow: 'POST' } });
  });
});

describe('model failures', () => {
  it.each([
    ['throws', 500, 'model_error'],
    ['refuses', 400, 'model_rejected_input'],
    ['wrong-length', 500, 'model_error'],
    ['nan', 500, 'model_error'],
  ] as const)('a model that %s gives %i %s', async (failure, status, code) => {
    const response = await call(createRewardApp({ model: createBrokenRewardModel(failure) }), post('/v1/score', { task: 't', plans: ['a', 'b'] }));
    expect(response.status).toBe(status);
    expect(response.json.error.code).toBe(code);
  });
});

describe('bearer token', () => {
  const app = createRewardApp({ model: createLengthRewardModel(), token: 'correct horse' });
  const body = { task: 't', plans: ['a'] };

  it.each([
    ['no header', {}],
    ['a wrong token', { authorization: 'Bearer battery staple' }],
    ['a token prefix', { authorization: 'Bearer correct' }],
    ['another scheme', { authorization: 'Basic correct horse' }],
  ])('answers 401 with %s', async (_name, headers) => {
    const response = await call(app, post('/v1/score', body, headers));
    expect(response).toMatchObject({ status: 401, headers: { 'www-authenticate': 'Bearer realm="orchrm"' }, json: { error: { code: 'unauthorized' } } });
  });

  it('serves a request with the right token, in any header case', async () => {
    expect((await call(app, post('/v1/score', body, { Authorization: 'bearer correct horse' }))).status).toBe(200);
  });

  it('guards /metrics but leaves /healthz open', async () => {
    expect((await call(app, { method: 'GET', path: '/metrics' })).status).toBe(401);
    expect(await call(app, { method: 'GET', path: '/healthz' })).toMatchObject({ status: 200, json: { status: 'ok', model: 'length' } });
  });
});

describe('GET /healthz and /metrics', () => {
  it('reports 503 on /healthz once draining', async () => {
    const app = createRewardApp({ model: createLengthRewardModel() });
    app.startDraining();
    expect(await call(app, { method: 'GET', path: '/healthz' })).toMatchObject({ status: 503, json: { status: 'shutting_down' } });
  });

  it('counts requests by route and status, latencies, and plans scored', async () => {
    let clockMs = 0;
    const app = createRewardApp({ model: createLengthRewardModel(), now: () => clockMs });
    for (const plans of [['a', 'b'], ['c', 'd', 'e']]) await app.request(post('/v1/score', { task: 't', plans }));
    clockMs = 0;
    const slow = app.request({ ...post('/v1/score', { task: 't', plans: 'bad' }), startedAtMs: -300 });
    await slow;
    await app.request({ method: 'GET', path: '/nowhere' });
    const metrics = await call(app, { method: 'GET', path: '/metrics' });
    expect(metrics.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const lines = (metrics.json as string).split('\n');
    expect(lines).toContain('orchrm_http_requests_total{route="/v1/score",status="200"} 2');
    expect(lines).toContain('orchrm_http_requests_total{route="/v1/score",status="400"} 1');
    expect(lines).toContain('orchrm_http_requests_total{route="other",status="404"} 1');
    expect(lines).toContain('orchrm_plans_scored_total 5');
    // Two instant requests and one of 300 ms: cumulative buckets.
    expect(lines).toContain('orchrm_http_request_duration_seconds_bucket{route="/v1/score",le="0.001"} 2');
    expect(lines).toContain('orchrm_http_request_duration_seconds_bucket{route="/v1/score",le="0.25"} 2');
    expect(lines).toContain('orchrm_http_request_duration_seconds_bucket{route="/v1/score",le="0.5"} 3');
    expect(lines).toContain('orchrm_http_request_duration_seconds_bucket{route="/v1/score",le="+Inf"} 3');
    expect(lines).toContain('orchrm_http_request_duration_seconds_sum{route="/v1/score"} 0.3');
    expect(lines).toContain('orchrm_http_request_duration_seconds_count{route="/v1/score"} 3');
  });
});

describe('refused requests', () => {
  it('are counted by route and code in /metrics and reported as request-refused events with their reason', async () => {
    const refusals: unknown[] = [];
    const app = createRewardApp({ model: createLengthRewardModel(), events: (event) => event.type === 'request-refused' && refusals.push(event.refusal) });
    await app.request({ ...post('/get_reward', { query: ['P1 plan', 'P2 plan'], prompts: ['P1 '] }), remoteAddress: '10.0.0.7' });
    await app.request(post('/v1/score', '{"plans": ['));
    await app.request({ method: 'GET', path: '/nowhere?x=1' });
    app.reject({ method: 'POST', path: '/get_reward' }, new HttpError(413, 'body_too_large', 'too large'));
    await app.request(post('/v1/score', { task: 't', plans: ['a'] }));
    expect(refusals).toEqual([
      { method: 'POST', path: '/get_reward', route: '/get_reward', status: 400, code: 'length_mismatch', field: 'prompts', message: 'prompts has 1 entries but query has 2; send one per query', remoteAddress: '10.0.0.7' },
      { method: 'POST', path: '/v1/score', route: '/v1/score', status: 400, code: 'invalid_json', message: expect.stringContaining('not valid JSON') },
      { method: 'GET', path: '/nowhere', route: 'other', status: 404, code: 'not_found', message: expect.any(String) },
      { method: 'POST', path: '/get_reward', route: '/get_reward', status: 413, code: 'body_too_large', message: 'too large' },
    ]);
    const lines = (await app.request({ method: 'GET', path: '/metrics' })).body.split('\n');
    expect(lines).toContain('orchrm_http_refusals_total{route="/get_reward",code="length_mismatch"} 1');
    expect(lines).toContain('orchrm_http_refusals_total{route="/get_reward",code="body_too_large"} 1');
    expect(lines).toContain('orchrm_http_refusals_total{route="other",code="not_found"} 1');
    expect(app.metrics.refusalCount('/v1/score', 'invalid_json')).toBe(1);
  });

  it('still answers when the event sink throws', async () => {
    const app = createRewardApp({ model: createLengthRewardModel(), events: () => { throw new Error('log full'); } });
    expect((await app.request(post('/v1/score', '[]'))).status).toBe(400);
  });

  it('carry the code and field for the status line', async () => {
    const response = await createRewardApp({ model: createLengthRewardModel() }).request(post('/get_reward', { query: [3] }));
    expect(response.refusal).toEqual({ code: 'invalid_field', field: 'query[0]' });
  });
});

describe('POST /get_reward task sources', () => {
  it('reads the task from labels with taskSource label, and strips the EOS OpenRLHF leaves on the plan', async () => {
    const model = createLengthRewardModel();
    const app = createRewardApp({ model, taskSource: 'label' });
    const response = await call(app, post('/get_reward', { query: ['<s>[INST] solve [/INST]abc</s>'], prompts: ['[INST] solve [/INST]'], labels: ['0123456789'] }));
    expect(response).toMatchObject({ status: 200, json: { rewards: [2] } });
    expect(model.calls).toEqual([{ task: '0123456789', plans: ['abc'] }]);
    expect(app.metrics.taskExtractionCount('label')).toBe(1);
  });

  it('reads the task with taskPattern, and counts a prompt it cannot read as unscored', async () => {
    const model = createLengthRewardModel();
    const app = createRewardApp({ model, taskPattern: 'Q: (?<task>.*?)\\nA:' });
    await call(app, post('/get_reward', { query: ['Q: 2+2?\nA:xy'], prompts: ['Q: 2+2?\nA:'] }));
    expect(model.calls).toEqual([{ task: '2+2?', plans: ['xy'] }]);
    const missed = await call(app, post('/get_reward', { query: ['x', 'Hello'], prompts: ['', 'Hello'] }));
    expect(missed.json).toMatchObject({ rewards: [1, 0], unscored: [{ index: 1, code: 'task_not_found' }] });
    expect(app.metrics.unscoredCount('task_not_found')).toBe(1);
  });
});
