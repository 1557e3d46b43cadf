import type { SelectionStrategy, StrategyName } from '../selection-strategy.js';
import { firstValidStrategy } from './first-valid.js';
import { judgeStrategy } from './judge.js';
import { majorityStrategy } from './majority.js';
import { oracleStrategy } from './oracle.js';
import { planJudgeStrategy } from './plan-judge.js';
import { rmAdaptiveStrategy } from './rm-adaptive.js';
import { rmTopKVoteStrategy } from './rm-topk-vote.js';
import { rmTemplatesOnlyStrategy, rmWithTemplatesStrategy } from './rm-with-templates.js';
import { rmStrategy } from './rm.js';
import { singleStrategy } from './single.js';

/** Every built-in strategy by name. */
export const STRATEGIES: Readonly<Record<StrategyName, SelectionStrategy>> = {
  single: singleStrategy,
  'first-valid': firstValidStrategy,
  rm: rmStrategy,
  'rm+templates': rmWithTemplatesStrategy,
  'rm-templates-only': rmTemplatesOnlyStrategy,
  'rm-topk-vote': rmTopKVoteStrategy,
  'rm-adaptive': rmAdaptiveStrategy,
  majority: majorityStrategy,
  judge: judgeStrategy,
  'plan-judge': planJudgeStrategy,
  oracle: oracleStrategy,
};

export { firstValidStrategy, judgeStrategy, majorityStrategy, oracleStrategy, planJudgeStrategy, rmAdaptiveStrategy, rmStrategy, rmTemplatesOnlyStrategy, rmTopKVoteStrategy, rmWithTemplatesStrategy, singleStrategy };
