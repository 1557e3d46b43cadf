import type { CalibrationSummary, CostHeadReport, EvaluationData, TrainedRewardModel } from '../rm/index.js';
import { probabilityCalibrationError } from '../rm/index.js';
import type { CostModelResults } from '../report/index.js';

/**
 * The reward model's cost head and calibration as results.json records them (`costModel`): what
 * training measured on the train and validation splits (the model's provenance), and the
 * calibration error of its success probability on the held-out graded episodes. Undefined for a
 * model without them.
 */
export async function costModelResults(model: TrainedRewardModel, heldOut: EvaluationData): Promise<CostModelResults | undefined> {
  const { cost, calibration } = (model.provenance.metrics ?? {}) as { cost?: CostHeadReport; calibration?: CalibrationSummary };
  if (cost === undefined || calibration === undefined || !model.canEstimate) return undefined;
  const byQuestion = new Map<string, EvaluationData['episodes'][number][]>();
  for (const episode of heldOut.episodes) {
    const list = byQuestion.get(episode.question);
    if (list === undefined) byQuestion.set(episode.question, [episode]);
    else list.push(episode);
  }
  const probabilities: number[] = [];
  const outcomes: boolean[] = [];
  for (const [question, episodes] of byQuestion) {
    const estimates = await model.estimate(
      question,
      episodes.map((episode) => episode.planText),
    );
    estimates.forEach((estimate, index) => {
      probabilities.push(estimate.successProbability);
      outcomes.push(episodes[index]!.correct);
    });
  }
  const fit = cost.validation ?? cost.train;
  return {
    calibration: {
      method: 'platt',
      slope: calibration.slope,
      intercept: calibration.intercept,
      train: calibration.train,
      ...(calibration.validation !== undefined && { validation: calibration.validation }),
      test: { examples: probabilities.length, ece: probabilities.length === 0 ? 0 : probabilityCalibrationError(probabilities, outcomes).ece },
    },
    cost: { trainExamples: cost.trainExamples, validationExamples: cost.validationExamples, meanAbsoluteError: fit.meanAbsoluteError, meanTokens: fit.meanTokens },
  };
}
