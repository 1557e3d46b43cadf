export { calibrateScenario, type CalibrationOptions, type CalibrationReport } from './calibrate-scenario.js';
export { FIXED_PLAN_KINDS, fixedKindCheckpoint, simPlanTemplates, type FixedPlanKind } from './fixed-plan-kinds.js';
