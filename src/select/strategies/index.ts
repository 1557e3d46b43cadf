import type { SelectionStrategy, StrategyName } from '../selection-strategy.js';
import { judgeStrategy } from './judge.js';
import { majorityStrategy } from './majority.js';
import { oracleStrategy } from './oracle.js';
import { planJudgeStrategy } from './plan-judge.js';
import { rmAdaptiveStrategy } from './rm-adaptive.js';
import { rmTopKVoteStrategy } from './rm-topk-vote.js';
import { rmStrategy } from './rm.js';
import { singleStrategy } from './single.js';

/** Every built-in strategy by name. */
export const STRATEGIES: Readonly<Record<StrategyName, SelectionStrategy>> = {
  single: singleStrategy,
  rm: rmStrategy,
  'rm-topk-vote': rmTopKVoteStrategy,
  'rm-adaptive': rmAdaptiveStrategy,
  majority: majorityStrategy,
  judge: judgeStrategy,
  'plan-judge': planJudgeStrategy,
  oracle: oracleStrategy,
};

export { judgeStrategy, majorityStrategy, oracleStrategy, planJudgeStrategy, rmAdaptiveStrategy, rmStrategy, rmTopKVoteStrategy, singleStrategy };
