export { DEFAULT_HOTPOT_PATH, defaultCorpusPath, loadHotpotFamily } from './load-hotpot-family.js';
export { HotpotRecordSchema, loadHotpotRecords, type HotpotRecord } from './hotpot-record.js';
export { entitySpans } from './entity-spans.js';
