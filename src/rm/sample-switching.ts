import type { PlanOutcome } from './cost-head.js';
import { headDifference } from './bootstrap-heads.js';
import { routerAccuracyPick, type SampleSwitching, type TemplateRouter } from './template-router.js';
import type { TrainedRewardModel } from './trained-reward-model.js';

/** One validation task's graded plans: the template plans that ran (the first episode of each) and the sampled plans. */
interface GradedTask {
  question: string;
  suite: string;
  templates: Map<string, { planText: string; correct: boolean }>;
  samples: { planText: string; correct: boolean }[];
}

/**
 * How `rm+templates`' switches from the template router's pick to a sampled plan fare on tasks the
 * model never trained on (issue 22: a head that has seen few sampled plans must not override a good
 * router). On every validation task of the collection where the router's accuracy pick ran as a
 * template and at least one sampled plan ran, both graded, it replays what `rm+templates` does
 * under the accuracy objective: the samples that score above the best-scored template by `margin`
 * standard deviations of the heads' score difference (strictly above without heads) may replace
 * the router's pick, the one with the widest such lead first. Per suite it counts the tasks, the
 * switches, and those the sample won (it was right, the router's pick wrong) or lost. The bar is
 * the best-scored of the templates that ran on the task: all of them in a passive collection's
 * template share and in an active collection's first round, where the sampled plans are.
 *
 * The validation split is never trained on (only early stopping and the encoder's choice read it),
 * so the record is what switching does on new tasks; it is small (a tenth of the collection's tasks
 * with templates), which is why `switchesPaid` asks for more wins than chance would give.
 */
export async function replaySampleSwitches(model: Pick<TrainedRewardModel, 'score' | 'scoreMembers'>, router: Pick<TemplateRouter, 'names' | 'probabilities'>, outcomes: readonly PlanOutcome[], margin: number, signal?: AbortSignal): Promise<SampleSwitching> {
  const tasks = new Map<string, GradedTask>();
  for (const outcome of outcomes) {
    if (outcome.split !== 'validation' || outcome.correct === undefined) continue;
    const entry: GradedTask = tasks.get(outcome.taskId) ?? { question: outcome.question, suite: outcome.suite ?? '', templates: new Map(), samples: [] };
    const plan = { planText: outcome.planText, correct: outcome.correct };
    if (outcome.template === undefined) entry.samples.push(plan);
    else if (!entry.templates.has(outcome.template)) entry.templates.set(outcome.template, plan);
    tasks.set(outcome.taskId, entry);
  }
  const names = router.names;
  const bySuite = new Map<string, { tasks: number; switches: number; wins: number; losses: number }>();
  for (const { question, suite, templates, samples } of tasks.values()) {
    signal?.throwIfAborted();
    if (samples.length === 0) continue;
    const at = routerAccuracyPick(router.probabilities(question, suite, names));
    const pick = at === undefined ? undefined : templates.get(names[at]!);
    if (pick === undefined) continue;
    const ran = [...templates.values()];
    const texts = [...samples.map((sample) => sample.planText), ...ran.map((template) => template.planText)];
    const [scores, members] = await Promise.all([model.score(question, texts, { signal }), model.scoreMembers(question, texts, { signal })]);
    const bar = ran.reduce((best, _, position) => (scores[samples.length + position]! > scores[best]! ? samples.length + position : best), samples.length);
    // The sample with the widest lead over the bar, the earliest on a tie, as `rm+templates` picks.
    let chosen: number | undefined;
    let widest = 0;
    samples.forEach((_, sample) => {
      const spread = headDifference(members[sample] ?? [], members[bar] ?? []).spread;
      const lead = scores[sample]! - scores[bar]! - margin * spread;
      if (lead > widest) [chosen, widest] = [sample, lead];
    });
    const entry = bySuite.get(suite) ?? { tasks: 0, switches: 0, wins: 0, losses: 0 };
    entry.tasks += 1;
    if (chosen !== undefined) {
      entry.switches += 1;
      if (samples[chosen]!.correct && !pick.correct) entry.wins += 1;
      if (!samples[chosen]!.correct && pick.correct) entry.losses += 1;
    }
    bySuite.set(suite, entry);
  }
  return { margin, suites: [...bySuite].map(([suite, entry]) => ({ suite, ...entry })) };
}
