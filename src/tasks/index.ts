export { createBm25Retriever, type Bm25RetrieverOptions } from './bm25-retriever.js';
export { CorpusDocumentSchema, loadCorpus, type CorpusDocument } from './corpus.js';
export { exactMatchGrader } from './exact-match-grader.js';
export { loadTaskFile } from './task-file.js';
