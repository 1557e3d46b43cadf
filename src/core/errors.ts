/**
 * Error tree split by who is at fault (as openai-agents-js `errors.ts`):
 * - `UserError`: bad configuration or input from the person running orchrm;
 * - `ModelBehaviorError`: a model produced something unusable (never a crash of ours);
 * - `ProviderError`: the model server or the network failed;
 * - `SystemError`: a bug in orchrm.
 * Every message says what was wrong and how to fix it.
 */
export class OrchrmError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

export class UserError extends OrchrmError {}

/** A file or config failed validation; names the file and the field. */
export class InvalidInputError extends UserError {
  constructor(
    readonly source: string,
    readonly issues: readonly { path: string; message: string }[],
    hint?: string,
  ) {
    const lines = issues.map((issue) => `  - ${issue.path || '(root)'}: ${issue.message}`);
    super(`${source} is invalid:\n${lines.join('\n')}${hint ? `\n${hint}` : ''}`);
  }
}

export class ModelBehaviorError extends OrchrmError {}

export class SystemError extends OrchrmError {}

/** The per-episode token budget ran out; carries what was spent. */
export class BudgetExceededError extends OrchrmError {
  constructor(
    readonly budgetTokens: number,
    readonly spentTokens: number,
  ) {
    super(`token budget of ${budgetTokens} exceeded (${spentTokens} spent); raise the budget with --token-budget`);
  }
}

/** A deadline passed. */
export class TimeoutError extends OrchrmError {
  constructor(
    readonly timeoutMs: number,
    what: string,
  ) {
    super(`${what} did not finish within ${timeoutMs} ms`);
  }
}

/** Turns a zod error into the `{path, message}` list InvalidInputError carries. */
export function zodIssues(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }) {
  return error.issues.map((issue) => ({
    path: issue.path.map((part) => (typeof part === 'number' ? `[${part}]` : String(part))).join('.').replace(/\.\[/g, '['),
    message: issue.message,
  }));
}
