/**
 * orchrm's prompt template set: every word orchrm sends to a model, in one place, under one
 * version. The codecs beside this file (block-prompts.ts, judge-prompts.ts,
 * orchestrator-prompt.ts, and their readers) write and read every prompt from these templates:
 * the blocks, the Best-of-N judges and the orchestrator write through them, and the simulator
 * (`sim/`) reads through them, so a change of wording is one edit here (and a new
 * PROMPT_SET_VERSION), not a change the simulator must follow by hand.
 *
 * Changing any text below changes what models see (and what a recorded run would replay), so
 * bump PROMPT_SET_VERSION with it.
 */

/** The version of the template set; bump it with any change of wording. */
export const PROMPT_SET_VERSION = 'orchrm-prompts/1';

/** The kinds of block call, named by the `Step:` line that opens every block prompt. */
export const PROMPT_STEPS = ['answer', 'critique', 'refine', 'debate-turn', 'debate-final', 'search', 'search-final'] as const;
export type PromptStep = (typeof PROMPT_STEPS)[number];

/**
 * Block prompts (see block-prompts.ts for the layout). A user message is a list of sections
 * separated by one blank line; a section is either inline header lines (`Role: Economist`)
 * or a block header line followed by its content.
 */
export const BLOCK_PROMPTS = {
  /** First line of every block user message: `Step: <kind>`. */
  stepHeader: 'Step:',
  /** Inline headers, by name without the colon; the value follows `<name>: ` on the same line. */
  inlineHeaders: { role: 'Role', round: 'Round', query: 'Query', iterationsLeft: 'Iterations left' },
  /** Block headers, each alone on its line; the content follows on the next lines. */
  blockHeaders: {
    subTask: 'Sub-task:',
    originalQuestion: 'Original question:',
    previousAnswer: 'Previous answer:',
    critique: 'Critique:',
    ownPreviousAnswer: 'Your previous answer:',
    otherAnswers: "Other agents' answers:",
    otherReasoning: "Other agents' reasoning:",
    debateAnswers: 'Debate answers:',
    finalRoundReasoning: 'Final-round reasoning:',
    searchResults: 'Search results:',
    instructions: 'Instructions:',
  },
  systems: {
    worker:
      'You are a careful expert solving one sub-task of a larger problem. Use the sections of the user message, reason step by step, and always finish with your final answer inside <answer></answer> tags.',
    critic: 'You are a strict reviewer. Check a proposed answer step by step, point out concrete errors, and give a verdict in <verdict></verdict> tags.',
    debate:
      "You are one agent in a debate among several agents solving the same sub-task. Weigh the other agents' arguments honestly, change your mind when they are right, and finish with your final answer inside <answer></answer> tags.",
    search:
      'You answer questions by searching a document collection. Each turn, either write <search>a short query</search> to search, or write <answer>your answer</answer> when the results are enough. Base your answer on the documents.',
  },
  instructions: {
    answer: 'Think step by step, then end your reply with your final answer inside <answer></answer> tags.',
    critique:
      'Check the previous answer step by step and explain any error. End with <verdict>correct</verdict> if the answer is correct, or <verdict>incorrect</verdict> if it is not.',
    refine: 'Fix the problems the critique found and solve the sub-task again.',
    debateTurn: (role: string) => `Answer as ${role}.`,
    debateTurnWithOthers: (role: string) => `Answer as ${role}. Consider the other agents' answers and reasoning.`,
    debateFinal: 'Decide the final answer to the sub-task from the debate.',
    searchStart: 'Write <search>a short query</search> to search the collection, or <answer>your answer</answer> if you can already answer.',
    searchAgain: 'Write <search>a short query</search> to search again, or <answer>your answer</answer> if the results are enough.',
    searchFinal: 'No searches are left. Give your final answer now inside <answer></answer> tags.',
    searchNoTag: 'Your last reply had neither a <search> nor an <answer> tag. ',
  },
  /** `### <role>` opens one agent's quoted text in the reasoning sections. */
  reasoningHeading: '### ',
  /** `- <role>: <answer>` lines; debate-final prefixes `Round <r>, `. */
  answerLinePrefix: '- ',
  roundPrefix: (round: number) => `Round ${round}, `,
  /** `Round: <r> of <n>`. */
  roundValue: (round: number, rounds: number) => `${round} of ${rounds}`,
  /** Marks quoted text whose start was cut. */
  cutStart: '[...] ',
  searchResults: {
    /** Per document `[<i>] <title> (id: <id>)`, then its text. */
    idMark: ' (id: ',
    /** Ends a document's text that was cut. */
    cutEnd: ' [...]',
    none: '(no results)',
    failed: (reason: string) => `(search failed: ${reason})`,
  },
} as const;

/** The Best-of-N judge prompts (see judge-prompts.ts for the layout). */
export const JUDGE_PROMPTS = {
  /** First line of a judge prompt; identifies it. */
  trajectoryHeader: 'Judge: trajectories',
  planHeader: 'Judge: plans',
  candidatesHeader: 'Candidates: ',
  questionHeader: 'Question:',
  /** `Candidate <k>:`, 1-based. */
  candidateHeader: (position: number) => `Candidate ${position}:`,
  candidatePattern: /^Candidate \d+:$/,
  /** Opens a candidate's plan in trajectory prompts (plan prompts show it right under the candidate line). */
  candidatePlanHeader: 'Plan:',
  outputsHeader: 'Intermediate outputs:',
  finalAnswerPrefix: 'Final answer: ',
  statusPrefix: 'Status: ',
  instructionsHeader: 'Instructions:',
  /** Shown for a missing answer or output list. */
  none: '(none)',
  systems: {
    trajectories:
      'You are an expert judge. Several multi-agent systems attempted the same question; for each you see its plan, the intermediate outputs of its agents and its final answer. Decide which candidate reached the correct answer.',
    plans:
      'You are an expert judge of multi-agent orchestration plans. Several plans were written for the same question and none has run yet. Decide which plan is most likely to reach the correct answer when executed.',
  },
  instructions: {
    trajectories: (count: number) =>
      `Check each candidate's reasoning and answer against the question. Reply with a short justification, then the number of the best candidate (1 to ${count}) inside <choice></choice> tags.`,
    plans: (count: number) =>
      `Judge how likely each plan is to reach the correct answer when its agents run. Reply with a short justification, then the number of the best plan (1 to ${count}) inside <choice></choice> tags.`,
  },
} as const;

/** The orchestrator prompt (see orchestrator-prompt.ts). */
export const ORCHESTRATOR_PROMPTS = {
  system:
    'You are the orchestrator of a multi-agent system. Read the task and design, in one response, ' +
    'the system that solves it: which sub-agents to run, the sub-task of each, and how their outputs ' +
    'feed each other. Do not solve the task yourself unless you answer directly. Output only the plan.',
  blocksHeader: 'Available blocks (use these names as the agent):',
  graphRules: [
    'Graph rules:',
    '- Node ids are unique and short: a letter, then letters, digits, "_" or "-".',
    '- A node\'s input is its sub-task. ${X} inserts the output of node X; an empty input means the original task.',
    '- There is an edge X -> Y exactly when the input of Y uses ${X}.',
    '- No cycles. At least one node starts from the task; exactly one node has no outgoing edge: the final node, whose output is the answer.',
  ].join('\n'),
  /** Every DoM rule starts with this marker, then `low`, `high` or `choose`. */
  domMarker: 'Degree of MAS: ',
  domRules: {
    low: 'Degree of MAS: low. Answer directly (no nodes) or use exactly one agent node.',
    high: 'Degree of MAS: high. Use as many agent nodes and edges as the task needs.',
    auto: 'Degree of MAS: choose. "low" = answer directly or use one agent (simple tasks); "high" = several agents in a graph (when decomposition or cross-checking helps). State your choice as dom.',
  },
  /** How each format's instructions begin (what the simulated orchestrator looks for). */
  formatMarkers: { json: 'Output format: one JSON', xml: 'Output format: XML' },
  jsonFormat:
    'Output format: one JSON object in a ```json fence, with keys "thinking" (brief reasoning), "dom" ("low" or "high"), "nodes" (list of {"id", "agent", "input", "params"}), "edges" (list of {"from", "to"}) and "answer" (id of the final node). Params left out take their defaults.',
  xmlFormat:
    'Output format: XML tags only. <thinking> (brief reasoning), <dom> (low or high), one <agent> block per node with <agent_id>, <agent_name>, and <required_arguments> holding <agent_input> and any params (JSON values, e.g. <roles>["A","B"]</roles>), one <edge><from>X</from><to>Y</to></edge> block per edge, and <answer_node> (id of the final node). Params left out take their defaults.',
  exampleQuestion: 'Which is larger: the population of Norway or the number of seconds in 60 days?',
  exampleIntro: (question: string) => `Example for "${question}":`,
  jsonDirectAnswer: 'A direct answer has no nodes: {"dom": "low", "nodes": [], "edges": [], "directAnswer": "42"}',
  xmlDirectAnswer: 'A direct answer has no agents: <dom>low</dom><answer>42</answer>',
  /** The user message: `Task:\n<question>\n\nWrite the plan.` */
  taskHeader: 'Task:',
  writePlan: 'Write the plan.',
} as const;
