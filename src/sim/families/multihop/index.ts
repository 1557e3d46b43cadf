export { createMultihopFamily } from './create-multihop-family.js';
export { decomposeMultihop } from './decompose-multihop.js';
export { buildMultihopWorld, type MultihopWorld } from './multihop-world.js';
export { entityDocumentId, renderCorpus, type KbCorpus, type KbDocument } from './render-corpus.js';
export { generateKnowledgeBase, followRelation, lookupEntity, valueName, type KbValue, type KnowledgeBase } from './knowledge-base.js';
export { parseQuestion, renderQuestion, type ParsedQuestion } from './question-grammar.js';
export { RELATIONS, type EntityType, type Relation, type RelationName, type ValueType } from './relations.js';
export { UNKNOWN_ANSWER } from './read-multihop.js';
