/** One retrieved document. */
export interface RetrievedDocument {
  id: string;
  title: string;
  text: string;
  score: number;
}

/** Anything a search block can query: BM25 over a local corpus, a web API, a dense index. */
export interface Retriever {
  readonly name: string;
  search(query: string, options: { topK: number; signal?: AbortSignal }): Promise<RetrievedDocument[]>;
}
