import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { Rng, type Plan } from '../core/index.js';
import { formatPlanXml, parsePlan } from '../plan/index.js';

/** Names a command that measures another parser on the same texts (see `benchPlanParseThroughput`). */
export const PEER_PARSER_VARIABLE = 'ORCHRM_BENCH_PEER_PARSER';

const MIN_CHARS = 1_024;
const MAX_CHARS = 5_120;

/** One text of the corpus, as written to the peer's JSONL file. */
interface CorpusText {
  text: string;
  /** How the text was made: `xml` MAS-Orchestra format, `xml-rendered` orchrm's own XML, `json` a fenced JSON plan. */
  kind: 'xml' | 'xml-rendered' | 'json';
}

/** Reasoning sentences an orchestrator writes before its plan (prose with numbers, `<` and braces, as in real outputs). */
const THINKING_SENTENCES = [
  'The question asks for a single number, so the final agent must output only that number.',
  'First I need to find the relevant quantities: the speed is 60 km/h and the time is 2.5 hours.',
  'A chain-of-thought agent can solve each sub-step; self-consistency helps where arithmetic is error-prone.',
  'If x < 3 then the second case applies, otherwise we use the first; the set {1, 2} covers both.',
  'Two retrieval hops are needed: one for the director of the film and one for their birthplace.',
  'A debate between a skeptic and an optimist should catch the mistake of counting the endpoints twice.',
  'The sub-tasks are independent, so they can run in parallel and merge in a final aggregator.',
  'Let me check the dependencies again: the aggregator reads both partial answers and nothing else.',
  'Reflexion is useful here because the first draft of the proof usually misses the base case.',
  'The answer should be given as a fraction in lowest terms, e.g. 3/4, not as a decimal.',
];

/** Plans the MAS-Orchestra reference runs, as written in the conformance corpus (the reference's prompt examples and their LLM-style variations). */
function conformancePlanTexts(): string[] {
  const directory = new URL('../../src/plan/test-fixtures/conformance/', import.meta.url);
  if (!existsSync(directory)) return [];
  const CaseSchema = z.object({ text: z.string(), expected: z.object({ verdict: z.string() }) });
  return readdirSync(directory)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .flatMap((name) => readFileSync(new URL(name, directory), 'utf8').split('\n'))
    .filter((line) => line !== '')
    .map((line) => CaseSchema.parse(JSON.parse(line)))
    .filter((entry) => entry.expected.verdict === 'runs' && entry.text.includes('<agent>'))
    .map((entry) => entry.text);
}

/** Reasoning of about `chars` characters, drawn from THINKING_SENTENCES. */
function thinkingOf(chars: number, rng: Rng): string {
  const sentences: string[] = [];
  let length = 0;
  while (length < chars) {
    const sentence = THINKING_SENTENCES[rng.int(0, THINKING_SENTENCES.length - 1)]!;
    sentences.push(sentence);
    length += sentence.length + 1;
  }
  return sentences.join(' ');
}

/** A plan as an orchestrator writes it in JSON (`thinking` kept out: it goes in the `<thinking>` preamble). */
function jsonPlanText(plan: Plan): string {
  const nodes = plan.nodes.map((node) => ({ id: node.id, agent: node.agent, input: node.input, ...(Object.keys(node.params).length > 0 && { params: node.params }) }));
  return JSON.stringify({ dom: plan.dom, nodes, edges: plan.edges, ...(plan.answer !== undefined && { answer: plan.answer }) }, null, 2);
}

/** Wraps a plan in the LLM-style output around it, with reasoning grown until the text is `target` characters. */
function wrap(kind: CorpusText['kind'], planText: string, target: number, rng: Rng): string {
  const pad = Math.max(0, target - planText.length - 80);
  const thinking = thinkingOf(pad, rng);
  if (kind === 'json') {
    const style = rng.int(0, 2);
    if (style === 0) return `<thinking>\n${thinking}\n</thinking>\n\n\`\`\`json\n${planText}\n\`\`\``;
    if (style === 1) return `${thinking}\n\nHere is the plan:\n\`\`\`json\n${planText}\n\`\`\`\n`;
    return `<thinking>${thinking}</thinking>\n${planText}`;
  }
  // The reference's own texts may already open with <thinking>; the reasoning then goes inside it.
  const withThinking = planText.includes('<thinking>') ? planText.replace('<thinking>', `<thinking>\n${thinking}\n`) : `<thinking>\n${thinking}\n</thinking>\n${planText}`;
  return rng.int(0, 3) === 0 ? `\`\`\`xml\n${withThinking}\n\`\`\`` : withThinking;
}

/**
 * A deterministic corpus of LLM-style plan texts of 1-5 KB: every plan the MAS-Orchestra
 * conformance corpus says the reference runs, written three ways (its own XML, orchrm's
 * rendered XML as the simulated orchestrator writes it, and fenced JSON), each behind a
 * `<thinking>` preamble (or prose) and sometimes in a code fence, `copies` times with
 * different lengths.
 */
export function planParseCorpus(copies = 2, seed = 16): CorpusText[] {
  const rng = new Rng(seed);
  const corpus: CorpusText[] = [];
  for (let copy = 0; copy < copies; copy++) {
    for (const source of conformancePlanTexts()) {
      const read = parsePlan(source);
      if (!read.ok) continue;
      const { thinking: _thinking, ...planWithoutThinking } = read.plan;
      const shapes: Array<[CorpusText['kind'], string]> = [
        ['xml', source],
        ['xml-rendered', formatPlanXml(planWithoutThinking)],
        ['json', jsonPlanText(read.plan)],
      ];
      for (const [kind, planText] of shapes) {
        if (planText.length > MAX_CHARS - 200) continue;
        let text = wrap(kind, planText, rng.int(MIN_CHARS, MAX_CHARS), rng);
        while (text.length < MIN_CHARS) text = wrap(kind, planText, MIN_CHARS + 200, rng);
        corpus.push({ kind, text });
      }
    }
  }
  return corpus;
}

/** CPU time of `run` in milliseconds (user + system: on a shared machine, fairer than wall time). */
function cpuMs(run: () => void): number {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

const PeerReportSchema = z.object({ plansPerSecond: z.number().positive() }).loose();

/**
 * Runs the peer command named in ORCHRM_BENCH_PEER_PARSER on the corpus: the command gets the
 * path of a JSONL file (one `{"text", "kind"}` per line) as its last argument and must print
 * one JSON object with `plansPerSecond` on stdout. Nothing of the peer is part of orchrm.
 */
function measurePeer(command: string, corpus: readonly CorpusText[]): z.infer<typeof PeerReportSchema> | { error: string } {
  const folder = mkdtempSync(join(tmpdir(), 'orchrm-plan-corpus-'));
  try {
    const path = join(folder, 'corpus.jsonl');
    writeFileSync(path, corpus.map((entry) => JSON.stringify(entry)).join('\n') + '\n');
    const run = spawnSync(`${command} '${path}'`, { shell: true, encoding: 'utf8', maxBuffer: 16 << 20 });
    if (run.status !== 0) return { error: `the peer command exited with ${run.status}: ${run.stderr.trim().slice(-500)}` };
    const lastLine = run.stdout.trim().split('\n').at(-1) ?? '';
    const parsed = PeerReportSchema.safeParse((() => {
      try {
        return JSON.parse(lastLine) as unknown;
      } catch {
        return undefined;
      }
    })());
    return parsed.success ? parsed.data : { error: `the peer command must print {"plansPerSecond": <number>} as its last line; it printed ${JSON.stringify(lastLine.slice(0, 200))}` };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * Plan parse + validate (`parsePlan` with the built-in catalog) on LLM-style plan texts of
 * 1-5 KB, on one core: plans per second in CPU time (user + system of this process), best of
 * `rounds` passes after a warm-up pass. With ORCHRM_BENCH_PEER_PARSER set, the same texts are given to that command and the
 * ratio ours / peer is printed.
 */
export function benchPlanParseThroughput(rounds = 15) {
  const corpus = planParseCorpus();
  if (corpus.length === 0) return { skipped: 'the conformance corpus (src/plan/test-fixtures/conformance) is not there' };
  // Read back from JSON, as model output arrives (and as the peer reads the corpus): flat strings, not the concatenations built above.
  const texts = corpus.map((entry) => JSON.parse(JSON.stringify(entry.text)) as string);
  const lengths = texts.map((text) => text.length).sort((a, b) => a - b);
  const kinds: Record<string, number> = {};
  for (const entry of corpus) kinds[entry.kind] = (kinds[entry.kind] ?? 0) + 1;
  let parsedOk = 0;
  for (const text of texts) if (parsePlan(text).ok) parsedOk++;
  let bestMs = Number.POSITIVE_INFINITY;
  for (let round = 0; round < rounds; round++) {
    bestMs = Math.min(bestMs, cpuMs(() => {
      for (const text of texts) parsePlan(text);
    }));
  }
  const plansPerSecond = Math.round((texts.length / bestMs) * 1000);
  const totalChars = lengths.reduce((sum, length) => sum + length, 0);
  const result = {
    plans: texts.length,
    kinds,
    parsedOk,
    chars: { min: lengths[0], median: lengths[lengths.length >> 1], max: lengths.at(-1), mean: Math.round(totalChars / texts.length) },
    plansPerSecond,
    megabytesPerSecond: Math.round((totalChars / bestMs / 1000) * 10) / 10,
  };
  const command = process.env[PEER_PARSER_VARIABLE];
  if (command === undefined || command.trim() === '') {
    return { ...result, peer: `not measured: set ${PEER_PARSER_VARIABLE} to a command that reads a JSONL file of {"text"} lines and prints {"plansPerSecond": n}` };
  }
  const peer = measurePeer(command, corpus);
  if ('error' in peer) return { ...result, peer };
  return { ...result, peer, ratioToPeer: Math.round((plansPerSecond / peer.plansPerSecond) * 100) / 100 };
}
