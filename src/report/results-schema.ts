import { z } from 'zod';
import { ReadingGainSchema, SampleSwitchingSchema } from '../rm/index.js';

/**
 * The schema of `<out>/results.json`, the file `orchrm demo` writes and `orchrm report` reads
 * (issue 8). Every number a report shows comes from here, so the file is the record of a run:
 * scenario, seed and configuration first, then one section per stage.
 *
 * Conventions: accuracies and rates are fractions in [0, 1] (never percent); intervals are 95%
 * intervals written `[low, high]` as in the `orchrm bon --json` output of issue 6 (the reward-model
 * evaluation's `{low, high}` objects are converted, see `intervalTuple`); tokens are counts split
 * by role as docs/architecture.md's token accounting asks. Unknown keys are dropped, so a newer writer's
 * extra fields do not break an older reader.
 */

/**
 * Version of this schema; bumped on any change a reader must know about. Version 2 added the
 * outcome-pair split, the structure-only baseline, source reliability, the label-free and
 * outcome-only models, the template pool and per-family paired differences. Version 3 (issue 21)
 * added each strategy's pick per task (`bon.picks`), the switching table per family
 * (`families[].switching`), GRPO over several seeds (`grpo.seeds`) and the sample-size verdicts;
 * version 1 and 2 files (without them) are still read. Version 4 (issue 22) added the whole token
 * bill of each route (`bill`) and the learning curves (`learningCurve`); older files are still read.
 */
export const RESULTS_SCHEMA_VERSION = 4;

const fraction = z.number().min(0).max(1);
const count = z.number().int().min(0);
const tokenCount = z.number().min(0);

/** A 95% interval `[low, high]` of a fraction or a difference of fractions. */
export const IntervalSchema = z
  .tuple([z.number().min(-1).max(1), z.number().min(-1).max(1)])
  .refine(([low, high]) => low <= high, { message: 'interval must be [low, high] with low <= high' });

/** Tokens by who spent them (docs/architecture.md, "Token accounting"); `total` is their sum. */
export const TokenSplitSchema = z.object({
  orchestrator: tokenCount,
  execution: tokenCount,
  verification: tokenCount,
  total: tokenCount,
});

/** A proportion with its interval (pairwise accuracy of a reward model). */
export const AccuracyWithCiSchema = z.object({
  accuracy: fraction,
  ci: IntervalSchema,
  /** Pairs ranked right (winner strictly higher; a tie counts as wrong). */
  correct: count,
  /** Pairs evaluated. */
  total: count,
  /** Pairs whose two scores tied. */
  ties: count.optional(),
});

/** Pairwise accuracy overall and per pair source, as `pairwiseAccuracy` (src/rm/eval) computes it. */
export const PairAccuracySchema = z.object({
  overall: AccuracyWithCiSchema,
  perSource: z.record(z.string(), AccuracyWithCiSchema),
});

/** One bin of the reliability diagram of sigmoid(r_a - r_b) on held-out pairs (`CalibrationBin`). */
export const CalibrationBinSchema = z.object({
  low: fraction,
  high: fraction,
  /** Oriented pairs in the bin (each pair is counted both ways). */
  count,
  meanConfidence: fraction,
  /** Fraction of the bin's predictions that came true. */
  accuracy: fraction,
});

/** Best-of-N selection accuracy on held-out episodes at one N (`BestOfNResult`). */
export const RmBestOfNSchema = z.object({
  n: z.number().int().min(1),
  accuracy: fraction,
  ci: IntervalSchema,
  /** Expected accuracy of a random pick among the N (what selection must beat). */
  randomAccuracy: fraction,
  /** Share of subsets with at least one correct plan (the ceiling of any selector). */
  oracleAccuracy: fraction,
  tasks: count.optional(),
  tieRate: fraction.optional(),
});

/**
 * Every correct-over-incorrect pair of the held-out episodes, split by whether the incorrect plan
 * was valid (`OutcomePairAccuracy`). Valid-vs-valid is what orchestration skill needs; valid-vs-invalid
 * only rejects plans that cannot run.
 */
export const OutcomePairsSchema = z.object({
  validVsValid: AccuracyWithCiSchema,
  validVsInvalid: AccuracyWithCiSchema,
  /** Within-task AUC of score vs correctness among valid plans; null with one class. */
  validWithinTaskAuc: fraction.nullable(),
});

/** A paired difference of two models' accuracy on the same held-out pairs. */
export const ModelDifferenceSchema = z.object({
  diff: z.number().min(-1).max(1),
  ci: IntervalSchema,
  /** Pairs compared. */
  pairs: count.optional(),
  /** What the pairs are, e.g. `valid-vs-valid outcome pairs`. */
  measuredOn: z.string().optional(),
});

/** What a model (the trained one or a baseline) scored on the held-out set. */
const RmMetricsShape = {
  outcomePairs: OutcomePairsSchema.optional(),
  pairAccuracy: PairAccuracySchema,
  /** Expected calibration error and bins of sigmoid(r_winner - r_loser). */
  calibration: z.object({ ece: z.number().min(0), bins: z.array(CalibrationBinSchema) }),
  /** AUC of score vs correctness over held-out episodes, pooled; null with one class. */
  auc: fraction.nullable(),
  /** AUC comparing plans of the same task only (what selection needs); null with one class. */
  withinTaskAuc: fraction.nullable().optional(),
  /** Best-of-N selection accuracy, e.g. at N = 2, 4, 8. */
  bon: z.array(RmBestOfNSchema),
};

/** A baseline (plan-only, length-only) trained and evaluated like the model, with the comparison. */
export const RmBaselineSchema = z.object({
  ...RmMetricsShape,
  /** Model accuracy minus baseline accuracy on the same pairs (valid-vs-valid outcome pairs from version 2), with a paired bootstrap interval. */
  difference: ModelDifferenceSchema,
  /** True only when that interval is above zero. */
  beats: z.boolean(),
  /** One plain sentence (`BaselineComparison.verdict`). */
  verdict: z.string(),
});

/** The reward model section: the trained model's held-out metrics next to its baselines (issue 5). */
export const RmResultsSchema = z.object({
  /** Model name, e.g. `linear`. */
  model: z.string(),
  /** File name of the model, relative to the results directory, e.g. `rm.safetensors`. */
  file: z.string().optional(),
  /** Held-out data sizes (tasks never seen in training). */
  heldOut: z.object({ pairs: count, episodes: count, tasks: count }),
  ...RmMetricsShape,
  /** Keyed by baseline kind: `structure-only` (version 2), `plan-only`, `length-only`. */
  baselines: z.record(z.string(), RmBaselineSchema),
});

/** One reliability unit of a mined dataset (`UnitReliability`). */
export const UnitReliabilitySchema = z.object({
  unit: z.string(),
  reliability: z.number().min(0.5).max(1),
  method: z.enum(['agreement', 'calibration', 'fixed', 'prior', 'none']),
  basis: count,
  weight: z.number().min(0),
});

/** Another reward model trained on a different part of the pairs, scored on the same held-out data. */
export const AlternativeModelSchema = z.object({
  model: z.string(),
  /** Pairs it was trained on (train and validation splits), by source. */
  pairs: z.record(z.string(), count),
  outcomePairs: OutcomePairsSchema,
  /** Its accuracy minus the reference model's on the held-out valid-vs-valid outcome pairs. */
  difference: ModelDifferenceSchema,
  /** What `difference` subtracts: the model it is compared with. */
  comparedWith: z.string(),
});

/** One strategy at one N, as `orchrm bon --json` prints it (`StrategySummary`). */
export const StrategySummarySchema = z.object({
  accuracy: fraction,
  ci: IntervalSchema,
  /** Mean tokens per task, by role. */
  tokens: TokenSplitSchema,
  executionsPerTask: z.number().min(0),
  judgeFailures: count.optional(),
});

/** A paired difference between two strategies on the same tasks (`PairedDifference`). */
export const PairedDifferenceSchema = z.object({ diff: z.number().min(-1).max(1), ci: IntervalSchema });

/** The issue-6 JSON at one N (`BonTable`). */
export const BonTableSchema = z.object({
  n: z.number().int().min(1),
  tasks: count,
  /** Keyed by strategy name: single, rm, rm-topk-vote, rm-adaptive, majority, judge, plan-judge, oracle. */
  strategies: z.record(z.string(), StrategySummarySchema),
  /** Keyed `<a>-vs-<b>`: accuracy of a minus b. */
  paired: z.record(z.string(), PairedDifferenceSchema),
  /**
   * With the template pool: the template `best-fixed` stands for, the one per family behind
   * `best-fixed-per-family` (chosen on these tasks), and the one per family behind
   * `train-best-fixed-per-family` (chosen on the model's training data; runs from before it have none).
   */
  bestFixed: z.object({ overall: z.string(), perSuite: z.record(z.string(), z.string()), perSuiteFromTraining: z.record(z.string(), z.string()).optional() }).optional(),
});

/** The candidate a strategy settled on for one task (`CandidatePick`, src/select). */
export const CandidatePickSchema = z.object({
  /** Pool index: 0..max(N)-1 are the sampled plans in sample order, then the templates in library order. */
  index: count,
  source: z.enum(['sample', 'template']),
  /** A template's name; for a sample, the template whose canonical plan it equals, else `sample:<shape>`. */
  kind: z.string(),
  /** The reward model's score, for the strategies that rank by it. */
  score: z.number().optional(),
  /** `rm+templates`: sd over the model's bootstrap heads of the pick's score minus the best template's. */
  uncertainty: z.number().min(0).optional(),
});

/** What every strategy and every template did on one test task at the headline N (version 3). */
export const TaskPicksSchema = z.object({
  taskId: z.string(),
  /** The task's family (suite). */
  suite: z.string(),
  /** Keyed by strategy: whether it was right, and the candidate it settled on (absent when none, e.g. oracle with no correct plan). */
  strategies: z.record(z.string(), z.object({ correct: z.boolean(), pick: CandidatePickSchema.optional() })),
  /** Keyed by template name: whether that template, executed on this task as a fixed plan, was right. */
  fixed: z.record(z.string(), z.boolean()),
});

/** Accuracy and mean tokens per task of one row of the cost-accuracy frontier (`FrontierRow`, src/select). */
export const FrontierRowSchema = z.object({
  accuracy: fraction,
  ci: IntervalSchema,
  /** Mean per task: execution plus verification tokens (what the frontier plots), and all tokens. */
  tokens: z.object({ executionPlusVerification: tokenCount, total: tokenCount }),
});

/**
 * The cost-accuracy frontier of rm+templates (`BonFrontier`, src/select; issue 22): its operating
 * points under a sweep of prices and margins, against every fixed plan, best-fixed,
 * best-fixed-per-family and the oracle, at the largest N. Optional: runs before issue 22 have none.
 */
export const BonFrontierSchema = z.object({
  n: z.number().int().min(1),
  tasks: count,
  /** rm+templates, or rm-templates-only: the template router alone, pricing each template by its record (`routerFrontier`). */
  strategy: z.enum(['rm+templates', 'rm-templates-only']),
  points: z.array(
    FrontierRowSchema.extend({
      /** `accuracy`, `price=<price per token>`, `cheapest-within=<margin>`. */
      label: z.string(),
      objective: z.object({ kind: z.enum(['accuracy', 'price', 'cheapest-within']), pricePerToken: z.number().min(0).optional(), margin: fraction.optional() }),
      versusBestFixedPerFamily: PairedDifferenceSchema,
      /** Fixed plans both more accurate and cheaper than this point. */
      dominatedBy: z.array(z.string()),
    }),
  ),
  fixed: z.array(FrontierRowSchema.extend({ name: z.string() })),
  bestFixed: FrontierRowSchema.extend({ name: z.string() }),
  bestFixedPerFamily: FrontierRowSchema.extend({ perSuite: z.record(z.string(), z.string()) }),
  oracle: FrontierRowSchema.optional(),
  /** Execution plus verification tokens per task of the cheapest point whose paired interval against best-fixed-per-family reaches 0; null when none does. */
  tokensAtBestFixedAccuracy: tokenCount.nullable(),
  pointAtBestFixedAccuracy: z.string().nullable(),
  /** `tokensAtBestFixedAccuracy` over best-fixed-per-family's tokens. */
  shareOfBestFixedPerFamilyTokens: z.number().min(0).nullable(),
  /** The cheapest fixed plan matching best-fixed-per-family by the same rule. */
  cheapestFixedAtBestFixedAccuracy: z.object({ name: z.string(), executionPlusVerification: tokenCount, versusBestFixedPerFamily: PairedDifferenceSchema }).nullable(),
  /** The cheapest fixed plan per family as accurate as best-fixed-per-family on every family (eighth round; optional, without a schema bump). */
  cheapestFixedPerFamilyAtBestFixedAccuracy: z.object({ perSuite: z.record(z.string(), z.string()), executionPlusVerification: tokenCount, versusBestFixedPerFamily: PairedDifferenceSchema }).optional(),
  /**
   * The best task-blind mix of fixed plans per family at the matching point's tokens, and the point
   * against it (thirteenth round; optional, without a schema bump); null when no point matches.
   */
  taskBlindMixAtBestFixedAccuracy: z
    .object({ perSuite: z.record(z.string(), z.record(z.string(), fraction)), accuracy: fraction, executionPlusVerification: tokenCount, pointMinusMix: PairedDifferenceSchema })
    .nullable()
    .optional(),
  /** No fixed plan is both cheaper and more accurate than some operating point. */
  undominated: z.boolean(),
});

/** Best-of-N: the table at the headline N (the issue-6 JSON) plus the same table at every N run. */
export const BonResultsSchema = BonTableSchema.extend({
  /** One table per N (e.g. 1, 2, 4, 8, 16): the accuracy-vs-tokens curves. Empty = headline only. */
  perN: z.array(BonTableSchema),
  /** Per test task, at the headline N: each strategy's pick and each template's outcome (version 3). */
  picks: z.array(TaskPicksSchema).optional(),
  /** The cost-accuracy frontier of rm+templates (issue 22; optional, without a schema bump: older readers drop it). */
  frontier: BonFrontierSchema.optional(),
  /**
   * The cost-accuracy frontier of rm-templates-only where the template router chose alone, pricing
   * each template by the execution tokens the router expects it to spend on the task (issue 22,
   * seventh and eighth rounds; optional, without a schema bump).
   */
  routerFrontier: BonFrontierSchema.optional(),
  /**
   * Per suite, the reference template of rm+templates and rm-templates-only: the one the reward
   * model ranks first on the most of the suite's test tasks; another replaces it only when the
   * model's heads agree it is better (issue 21; optional, without a schema bump).
   */
  templateReferences: z.record(z.string(), z.string()).optional(),
  /**
   * With a reward model whose template router knows every template and suite (issue 21, fourth round):
   * rm+templates and rm-templates-only chose their template by it, and no reference applied.
   * How it was fitted (`TemplateRouterReport`; optional, without a schema bump).
   */
  templateRouter: z
    .object({
      templates: z.number().int().min(0),
      facts: z.number().int().min(0),
      trainEpisodes: z.number().int().min(0),
      validationEpisodes: z.number().int().min(0),
      l2: z.number(),
      validationLoss: z.array(z.object({ l2: z.number(), loss: z.number() })),
      /** What reading the sampled plans is expected to add to the router's priced pick, per suite and price (`estimateReadingGain`); absent for models without it. */
      readingGain: ReadingGainSchema.optional(),
      /** Where rm+templates let a sampled plan replace the router's pick: its switches on the collection's validation tasks, per suite (`replaySampleSwitches`); absent for models without it. */
      sampleSwitching: SampleSwitchingSchema.optional(),
    })
    .optional(),
});

/**
 * The reward model's cost head and calibration (issue 22), as the demo measures them: the Platt
 * parameters and the calibration error of the success probability on the train split (fitted
 * there), the validation split and the held-out test episodes, and the cost head's fit.
 */
export const CostModelResultsSchema = z.object({
  calibration: z.object({
    method: z.literal('platt'),
    slope: z.number(),
    intercept: z.number(),
    train: z.object({ examples: count, ece: fraction }),
    validation: z.object({ examples: count, ece: fraction }).optional(),
    test: z.object({ examples: count, ece: fraction }),
  }),
  cost: z.object({
    trainExamples: count,
    validationExamples: count,
    /** Mean absolute error of predicted execution tokens and the mean, on the validation split (train when there is none). */
    meanAbsoluteError: tokenCount,
    meanTokens: tokenCount,
  }),
});

/** Held-out accuracy of the policy after some training (`EvaluationPoint`). */
export const GrpoCurvePointSchema = z.object({
  /** GRPO steps done (0 = the starting checkpoint). */
  step: count,
  accuracy: fraction,
  /** Cumulative training tokens at that step (evaluation tokens are not training tokens). */
  trainingTokens: TokenSplitSchema,
  /** Held-out episodes the accuracy was measured on. */
  episodes: count.optional(),
});

/** One GRPO run (`RunSimGrpoResult`, summarised). */
export const GrpoRunSchema = z.object({
  /** Starting checkpoint name. */
  from: z.string().optional(),
  steps: count.optional(),
  /** Final held-out accuracy. */
  accuracy: fraction,
  /** Cumulative training tokens at the end. */
  trainingTokens: TokenSplitSchema,
  /** Tokens spent on held-out evaluation (kept apart). */
  evaluationTokens: tokenCount.optional(),
  curve: z.array(GrpoCurvePointSchema),
});

/** One reward's GRPO runs over several seeds (version 3). */
export const GrpoSeedRunsSchema = z.object({
  /** Final held-out accuracy of each seed's run, in the order of `seeds`. */
  accuracies: z.array(fraction).min(1),
  /** Their mean. */
  mean: fraction,
  /** 95% interval of the mean (Student's t over seeds), clipped to [0, 1]. */
  ci: IntervalSchema,
  /** Mean training tokens per run. */
  trainingTokens: TokenSplitSchema,
});

/** Reward-guided training (issue 7): `rm` vs `execution` reward from the same start, same steps. */
export const GrpoResultsSchema = z.object({
  /** Held-out accuracy of the starting checkpoint. */
  baseAccuracy: fraction,
  /** Tokens spent collecting the episodes that trained the reward model: the honest cost of `rm`. */
  rmCollectionTokens: TokenSplitSchema,
  /**
   * The reward model GRPO's `rm` reward read, when it was trained on a share of the collection's
   * training tasks (`rmCollectionTokens` is then that share's); the whole collection trained
   * Best-of-N's model.
   */
  rewardModel: z
    .object({
      /** Share of the collection's training tasks (the learning curve's order). */
      share: z.number().gt(0).max(1),
      tasks: count,
      /** Pairs of those tasks it was trained on (train and validation splits). */
      pairs: count,
      /** Every collection run's tokens, what Best-of-N's model read. */
      wholeCollectionTokens: TokenSplitSchema,
    })
    .optional(),
  rm: GrpoRunSchema,
  execution: GrpoRunSchema,
  judge: GrpoRunSchema.optional(),
  hybrid: GrpoRunSchema.optional(),
  /**
   * Each reward run with several seeds, same start, tasks and held-out draws (version 3); `rm` and
   * `execution` above are the first seed's runs (their curves are charted).
   */
  seeds: z.object({ seeds: z.array(z.number().int()).min(1), rm: GrpoSeedRunsSchema, execution: GrpoSeedRunsSchema }).optional(),
});

/** One stage of a route's token bill (version 4), with the tokens its own count gave. */
export const BillStageSchema = z.object({
  /** Short name, e.g. `strong checkpoint`, `collection`, `grpo`. */
  stage: z.string().min(1),
  /** What was spent, in a phrase. */
  what: z.string(),
  tokens: TokenSplitSchema,
  /** `once` whatever the number of orchestrator trainings (the collection), or `per-run` (each GRPO run). */
  paid: z.enum(['once', 'per-run']),
  /** Why this stage is listed apart (a user may already have what it makes); its route shows totals with and without it. */
  apart: z.string().optional(),
});

/** One route to a trained orchestrator and everything it spends for one GRPO run (version 4). */
export const BillRouteSchema = z.object({
  stages: z.array(BillStageSchema),
  /** Every stage: paid-once stages plus one GRPO run. */
  total: TokenSplitSchema,
  /** The same without the stages listed apart. */
  totalWithoutApart: TokenSplitSchema,
  /** Mean held-out accuracy over GRPO seeds minus the starting checkpoint's. */
  accuracyGain: z.number().min(-1).max(1),
});

/**
 * The whole bill of both routes (version 4): the reward-model route (the stronger checkpoint it
 * collects from, the collection, and GRPO whose rewards are the model's scores) and the execution
 * route (GRPO whose every plan is executed), each stage from that stage's own token count.
 */
export const BillSchema = z.object({
  rewardModel: BillRouteSchema,
  execution: BillRouteSchema,
  /** Tokens one GRPO run saves on the reward-model route: the execution run's minus the rm run's. */
  savingPerRun: z.number(),
  /**
   * Fewest GRPO runs after which the reward-model route has spent no more than the execution route
   * (its paid-once stages repaid by the per-run saving); null when a run saves nothing.
   */
  breakEvenRuns: z.number().int().min(1).nullable(),
  /** The same without the stages listed apart. */
  breakEvenRunsWithoutApart: z.number().int().min(1).nullable(),
  /** The reward-model route's GRPO accuracy gain over the execution route's; null when execution gains nothing. */
  gainShare: z.number().nullable(),
  /** Spending the bill does not count, each with where it is reported. */
  leavesOut: z.array(z.string()),
});

/** One point of a learning curve (version 4): a model trained on a share of a collection, judged on the common held-out set. */
export const LearningCurvePointSchema = z.object({
  /** `passive`: every sampled plan executed; `active`: plans chosen by the model in rounds. */
  collection: z.enum(['passive', 'active']),
  /** Share of the collection's training tasks trained on. */
  share: z.number().min(0).max(1),
  tasks: count,
  pairs: count,
  /** Tokens of every episode of those tasks (orchestrator, execution, verification): what collecting them cost. */
  collectionTokens: tokenCount,
  /** Accuracy on the held-out valid-vs-valid outcome pairs. */
  validVsValid: AccuracyWithCiSchema,
  /** Best-of-N selection accuracy on the held-out episodes at `learningCurve.n`. */
  bestOfN: z.object({ accuracy: fraction, ci: IntervalSchema, randomAccuracy: fraction, oracleAccuracy: fraction, tasks: count }),
});

/** Learning curves of the reward model against collection tokens, every point on one held-out set (version 4). */
export const LearningCurveSchema = z.object({
  /** Candidates per held-out task of the Best-of-N points. */
  n: z.number().int().min(1),
  /** The held-out set every point is judged on. */
  heldOut: z.object({ tasks: count, episodes: count, validPairs: count }),
  /** Tokens the collection behind the curve spent beyond its points: the held-out tasks' episodes, and the stronger checkpoint's training. */
  notInPoints: z.string(),
  points: z.array(LearningCurvePointSchema),
});

/** One pair source (`PairStats`, summarised). */
export const PairSourceSchema = z.object({
  /** Pairs in the dataset from this source. */
  count,
  /**
   * Of the graded pairs whose two outcomes differ, the share whose winner was the correct one
   * (`OutcomeAgreement.strictlyBetter`). Null for sources decided by the outcome itself
   * (`outcome`, `efficiency`) and when no graded pair differs.
   */
  agreementWithOutcome: fraction.nullable(),
  /** Graded pairs whose outcomes differ (the denominator of the agreement). */
  differing: count.optional(),
  /** Share of graded pairs whose winner's outcome is at least as good as the loser's. */
  atLeastAsGood: fraction.nullable().optional(),
});

/**
 * One strategy's switching in one family at the headline N (`SwitchingSummary`): how often its pick
 * is of another kind than the family's best fixed plan, and on those tasks whether it was right
 * where that plan, executed on the same task, was wrong (a win) or the reverse (a loss).
 */
export const SwitchingRowSchema = z.object({
  strategy: z.string(),
  /** The template best on the family's tasks (chosen after the fact). */
  bestFixed: z.string(),
  tasks: count,
  switched: count,
  wins: count,
  losses: count,
  /** Kinds picked instead of `bestFixed`, with task counts, most frequent first. */
  kinds: z.record(z.string(), count),
});

/** One task family's accuracy under each method. */
export const FamilyRowSchema = z.object({
  /** Family (task suite), e.g. `arith`, `multihop`. */
  family: z.string(),
  /** Test tasks of the family. */
  tasks: count,
  /** Keyed by method label (e.g. `base`, `bon:rm`, `bon:single`, `grpo:rm`): accuracy with optional CI. */
  accuracy: z.record(z.string(), z.object({ accuracy: fraction, ci: IntervalSchema.optional() })),
  /** Paired differences on the family's tasks, keyed `<a>-vs-<b>` as in `bon.paired` (e.g. `rm-vs-single`). */
  paired: z.record(z.string(), PairedDifferenceSchema).optional(),
  /** The template best on the family's tasks (the `best-fixed` row of this family). */
  bestFixed: z.string().optional(),
  /** How the rm strategies' picks switch away from `bestFixed`, and with what result (version 3). */
  switching: z.array(SwitchingRowSchema).optional(),
});

/** The scenario calibration of src/sim/calibrate (`CalibrationReport`), the fields the report shows. */
export const SimCalibrationSchema = z.object({
  scenario: z.string(),
  seed: z.number().int(),
  tasks: count,
  /** Points: best fixed plan kind per family minus the best single kind everywhere. */
  bestFixedPlanGap: z.number(),
  /** Points: oracle@N of the base policy minus its single-plan accuracy. */
  baseVsOracleGap: z.number(),
  /** Mean execution tokens of the costliest plan kind over the cheapest executing kind. */
  execTokenSpread: z.number().min(0),
  /** Mean plan-writing tokens over mean execution tokens, base policy. */
  planTokenShare: z.number().min(0),
  base: z.object({ accuracy: fraction, oracleAtN: fraction, plansPerTask: count }),
  bestSingleKind: z.object({ kind: z.string(), accuracy: fraction }),
  bestKindPerFamily: z.record(z.string(), z.object({ kind: z.string(), accuracy: fraction })),
});

/** One round of `orchrm loop`. */
export const LoopRoundSchema = z.object({
  /** 1-based round. */
  round: z.number().int().min(1),
  /** Held-out pairwise accuracy of the reward model retrained this round. */
  pairAccuracy: fraction,
  pairAccuracyCi: IntervalSchema.optional(),
  /** Best-of-N accuracy (N = 8) on held-out tasks with this round's reward model. */
  bonAccuracy: fraction,
  bonAccuracyCi: IntervalSchema.optional(),
  /** Tokens spent in this round (collection, mining, selection). */
  tokens: TokenSplitSchema,
  /** Pairs the model was trained on (everything collected so far). */
  pairs: count.optional(),
});

/** `<out>/results.json` of `orchrm demo` (and `orchrm loop`). */
export const DemoResultsSchema = z.object({
  schemaVersion: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(RESULTS_SCHEMA_VERSION)]),
  /** Scenario name or file. */
  scenario: z.string().min(1),
  /**
   * The scenario's own seed, which draws its tasks and its worlds (knowledge base, corpus); `seed`
   * draws everything else, so runs that differ only in `seed` share their tasks. Absent in files
   * written before it was recorded.
   */
  scenarioSeed: z.number().int().optional(),
  /**
   * Whether the scenario is a control (its `control` knob): plan choice cannot change accuracy, so
   * the findings are the control targets. Absent in files written before it was recorded, where a
   * scenario named `control` is one.
   */
  scenarioControl: z.boolean().optional(),
  seed: z.number().int(),
  /** orchrm version that wrote the file. */
  version: z.string().optional(),
  /** Wall time of the whole run. */
  durationMs: z.number().min(0).optional(),
  /** The run's configuration (task counts, N, steps, encoder...), as given; shown verbatim. */
  config: z.record(z.string(), z.unknown()),
  /** Keyed by pair source: outcome, checkpoint, process, efficiency. */
  pairs: z.record(z.string(), PairSourceSchema),
  rm: RmResultsSchema,
  /** The cost head and calibration of the reward model (issue 22); absent in older runs. */
  costModel: CostModelResultsSchema.optional(),
  /** Estimated reliability of each source and process signal, and the pair weight it earned (version 2). */
  reliability: z.array(UnitReliabilitySchema).optional(),
  /**
   * The model trained on label-free pairs only (no grade read while mining), compared with the
   * outcome-only model; its Best-of-N at the headline N when run (version 2).
   */
  labelFree: AlternativeModelSchema.extend({
    reliability: z.array(UnitReliabilitySchema),
    bon: z.object({ n: z.number().int().min(1), tasks: count, strategies: z.record(z.string(), StrategySummarySchema), paired: z.record(z.string(), PairedDifferenceSchema) }).optional(),
  }).optional(),
  /** The model trained on outcome pairs only, compared with the main model (version 2). */
  outcomeOnly: AlternativeModelSchema.optional(),
  bon: BonResultsSchema,
  grpo: GrpoResultsSchema,
  /** Scenario calibration, when the run measured it. */
  calibration: SimCalibrationSchema.optional(),
  /** Per-family accuracy table on the test tasks. */
  families: z.array(FamilyRowSchema),
  /** Self-improvement rounds of `orchrm loop`. */
  loop: z.array(LoopRoundSchema).optional(),
  /** The whole token bill of the reward-model route and the execution route (version 4). */
  bill: BillSchema.optional(),
  /** The reward model's learning curves against collection tokens (version 4). */
  learningCurve: LearningCurveSchema.optional(),
});

/** `<out>/results.json`, validated. */
export type DemoResults = z.infer<typeof DemoResultsSchema>;
export type TokenSplit = z.infer<typeof TokenSplitSchema>;
export type IntervalTuple = z.infer<typeof IntervalSchema>;
export type BonTableResult = z.infer<typeof BonTableSchema>;
export type BonFrontierResult = z.infer<typeof BonFrontierSchema>;
export type CostModelResults = z.infer<typeof CostModelResultsSchema>;
export type GrpoRunResult = z.infer<typeof GrpoRunSchema>;
export type RmResults = z.infer<typeof RmResultsSchema>;
export type TaskPicks = z.infer<typeof TaskPicksSchema>;
export type SwitchingRow = z.infer<typeof SwitchingRowSchema>;
export type Bill = z.infer<typeof BillSchema>;
export type LearningCurveResult = z.infer<typeof LearningCurveSchema>;
export type LearningCurvePointResult = z.infer<typeof LearningCurvePointSchema>;
export type BillStage = z.infer<typeof BillStageSchema>;
