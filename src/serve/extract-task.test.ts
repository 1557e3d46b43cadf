import { describe, expect, it } from 'vitest';
import { buildOrchestratorMessages, defaultBlockCatalog, formatPlanXml } from '../plan/index.js';
import { syntheticPairs, trainRewardModel } from '../rm/index.js';
import { lastUserTurn, stripLeadingSpecialTokens, stripTrailingSpecialTokens } from './chat-templates.js';
import { createTaskExtractor, orchrmPromptTask } from './extract-task.js';
import { createRewardApp } from './reward-app.js';
import { endOfTurn, renderChat, TEMPLATE_NAMES, type TemplateName } from './test-fixtures/render-chat.js';

const catalog = defaultBlockCatalog();
const TASK = 'A train leaves at 9:40 and arrives at 13:05. How long is the trip, in minutes?';
const TEMPLATES: TemplateName[] = [...TEMPLATE_NAMES, 'plain'];

/** orchrm's own orchestrator prompt for `task`, rendered as the policy's tokenizer would. */
function orchestratorPrompt(task: string, template: TemplateName, format: 'json' | 'xml' = 'json'): string {
  return renderChat(buildOrchestratorMessages(task, { catalog, format, dom: 'auto' }), template);
}

describe('createTaskExtractor (auto)', () => {
  const extract = createTaskExtractor();

  it.each(TEMPLATES)('recovers the task from orchrm\'s orchestrator prompt rendered with the real %s template', (template) => {
    const prompt = orchestratorPrompt(TASK, template);
    expect(prompt.length).toBeGreaterThan(300);
    expect(extract(prompt, undefined, 0)).toMatchObject({ task: TASK, rule: 'orchrm-prompt' });
  });

  it('finds `Task:` right after a special token, in a template it does not know (issue 24)', () => {
    // A made-up template whose user turn opens with a special token and no newline.
    const prompt = `<|turn|>system<|content|>Plan well.<|stop|><|turn|>user<|content|>Task:\n${TASK}\n\nWrite the plan.<|stop|><|turn|>assistant<|content|>`;
    expect(extract(prompt, undefined, 0)).toEqual({ task: TASK, rule: 'orchrm-prompt' });
    for (const token of ['<|message|>', '<|im_sep|>', '<|USER_TOKEN|>', '<|end_of_role|>']) expect(orchrmPromptTask(`x${token}Task:\n${TASK}\n\nWrite the plan.`)).toBe(TASK);
    // Not after an ordinary word or markup that is not a token.
    expect(orchrmPromptTask(`SubTask:\n${TASK}\n\nWrite the plan.`)).toBeUndefined();
    expect(orchrmPromptTask(`a <b>Task:\n${TASK}\n\nWrite the plan.`)).toBe(TASK);
    expect(orchrmPromptTask(`a -> Task:\n${TASK}\n\nWrite the plan.`)).toBe(TASK);
    expect(orchrmPromptTask(`a->Task:\n${TASK}\n\nWrite the plan.`)).toBeUndefined();
  });

  it.each(['gpt-oss', 'command-r', 'phi-4', 'granite-3.0-instruct'] as const)('reads the %s template\'s user turn', (template) => {
    const prompt = renderChat([{ role: 'system', content: 'Plan carefully.' }, { role: 'user', content: TASK }], template);
    expect(extract(prompt, undefined, 0)).toMatchObject({ task: TASK, rule: 'chat-user-turn' });
  });

  it('recovers a multi-line task, and one that itself mentions "Task:" mid-line', () => {
    const task = 'Read the note.\nTask: none of your business.\n\nThen answer: what is 2+2?';
    expect(extract(orchestratorPrompt(task, 'qwen2.5-instruct', 'xml'), undefined, 0).task).toBe(task);
  });

  it('takes the last user turn of a chat prompt that is not orchrm\'s', () => {
    const prompt = renderChat([{ role: 'system', content: 'Plan carefully.' }, { role: 'user', content: `  ${TASK}\n` }], 'llama3.1-instruct');
    expect(extract(prompt, undefined, 0)).toEqual({ task: TASK, rule: 'chat-user-turn', template: 'llama3' });
  });

  it('keeps a prompt without a template or orchrm\'s wrapper as it is (orchrm\'s own client sends the task)', () => {
    expect(extract(TASK, undefined, 0)).toEqual({ task: TASK, rule: 'whole-prompt' });
  });
});

describe('createTaskExtractor (other sources)', () => {
  it('prompt: the prompt verbatim, template and all', () => {
    const prompt = orchestratorPrompt(TASK, 'qwen2.5-instruct');
    expect(createTaskExtractor({ source: 'prompt' })(prompt, undefined, 0)).toEqual({ task: prompt, rule: 'prompt' });
  });

  it('label: the labels entry, and a 400 naming it when it is not a task', () => {
    const extract = createTaskExtractor({ source: 'label' });
    expect(extract('anything', TASK, 0)).toEqual({ task: TASK, rule: 'label' });
    expect(() => extract('anything', 7, 3)).toThrow(/labels\[3\] must hold the task text.*--data\.label_key/);
  });

  it('pattern: the named group, else the first group; a 400 for a prompt it misses; a UserError for a bad regex', () => {
    const prompt = `User: Solve this.\nQuestion: ${TASK}\nAssistant:`;
    expect(createTaskExtractor({ pattern: 'Question: (?<task>.*?)\\nAssistant:' })(prompt, undefined, 0)).toEqual({ task: TASK, rule: 'pattern' });
    expect(createTaskExtractor({ pattern: 'Question: (.*)\\n' })(prompt, undefined, 0).task).toBe(TASK);
    expect(() => createTaskExtractor({ pattern: 'Problem: (.*)' })(prompt, undefined, 2)).toThrow(/prompts\[2\] does not match the server's --task-pattern/);
    expect(() => createTaskExtractor({ pattern: '(unclosed' })).toThrow(/--task-pattern is not a valid regular expression/);
  });
});

describe('chat template helpers', () => {
  it('orchrmPromptTask reads only orchrm\'s wrapper', () => {
    expect(orchrmPromptTask('Task:\nWhat is 2+2?\n\nWrite the plan.')).toBe('What is 2+2?');
    expect(orchrmPromptTask('What is 2+2?')).toBeUndefined();
    expect(orchrmPromptTask('SubTask:\nx\n\nWrite the plan.')).toBeUndefined();
  });

  it('lastUserTurn takes the last of several user turns', () => {
    const prompt = renderChat([{ role: 'user', content: 'first' }, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'second' }], 'qwen2.5-instruct');
    expect(lastUserTurn(prompt)).toEqual({ template: 'chatml', content: 'second' });
    expect(lastUserTurn('no template here')).toBeUndefined();
  });

  it('strips BOS and end-of-turn tokens at the edges only', () => {
    expect(stripLeadingSpecialTokens('<|begin_of_text|><|begin_of_text|>x')).toBe('x');
    expect(stripTrailingSpecialTokens('plan <|im_end|>\n<|endoftext|>')).toBe('plan');
    expect(stripTrailingSpecialTokens('a <|im_end|> b')).toBe('a <|im_end|> b');
  });
});

describe('OpenRLHF queries scored as /v1/score scores the same plans (issue 15: 6.5% of orderings flipped)', () => {
  it('200 pairs of plans, policy prompts in every real template: no ordering differs from /v1/score (issue 24: 6 to 10 of 200 did, each, for Phi-4, gpt-oss, Command R and Granite)', async () => {
    const pairs = syntheticPairs({ pairs: 400, seed: 11 });
    // A model that reads task words, so that reading the prompt as the task changes scores.
    const { model } = await trainRewardModel(pairs.slice(0, 200), { seed: 11, maxEpochs: 5, encoder: 'words:1-2,structure,task-stats,cross', tune: false });
    const app = createRewardApp({ model, maxPlans: 100_000 });
    const held = pairs.slice(200);
    const direct: number[] = [];
    for (const pair of held) {
      const response = await app.request({ method: 'POST', path: '/v1/score', body: JSON.stringify({ task: pair.question, plans: [pair.winner.planText, pair.loser.planText] }) });
      const [a, b] = (JSON.parse(response.body) as { scores: [number, number] }).scores;
      direct.push(Math.sign(a - b));
    }
    expect(direct.filter((sign) => sign === 0)).toHaveLength(0);
    const flips = async (template: TemplateName, taskSource: 'auto' | 'prompt') => {
      const prompts = held.map((pair) => orchestratorPrompt(pair.question, template, 'xml'));
      const query = held.flatMap((pair, index) => [pair.winner.planText, pair.loser.planText].map((plan) => prompts[index] + plan + endOfTurn(template)));
      const body = JSON.stringify({ query, prompts: prompts.flatMap((prompt) => [prompt, prompt]), labels: query.map(() => '') });
      const response = await createRewardApp({ model, maxPlans: 100_000, taskSource }).request({ method: 'POST', path: '/get_reward', body });
      const { rewards } = JSON.parse(response.body) as { rewards: number[] };
      return held.filter((_, index) => Math.sign(rewards[2 * index]! - rewards[2 * index + 1]!) !== direct[index]).length;
    };
    const found: { template: TemplateName; flips: number }[] = [];
    for (const template of TEMPLATES) found.push({ template, flips: await flips(template, 'auto') });
    expect(found).toEqual(TEMPLATES.map((template) => ({ template, flips: 0 })));
    // Reading the whole prompt as the task (the old behaviour) changes orderings.
    expect(await flips('qwen2.5-instruct', 'prompt')).toBeGreaterThan(0);
  });

  it('a real plan after orchrm\'s prompt is the plan the model reads', async () => {
    const plan = formatPlanXml({ dom: 'high', nodes: [{ id: 'A', agent: 'cot', input: '', params: {} }], edges: [], answer: 'A' });
    const prompt = orchestratorPrompt(TASK, 'qwen2.5-instruct', 'xml');
    const seen: { task: string; plans: string[] }[] = [];
    const app = createRewardApp({ model: { name: 'spy', score: async (task, plans) => (seen.push({ task, plans: plans as string[] }), plans.map(() => 0)) } });
    await app.request({ method: 'POST', path: '/get_reward', body: JSON.stringify({ query: [`${prompt}${plan}<|im_end|>`], prompts: [prompt], labels: ['42'] }) });
    expect(seen).toEqual([{ task: TASK, plans: [plan] }]);
    expect(app.metrics.taskExtractionCount('orchrm-prompt')).toBe(1);
  });
});
