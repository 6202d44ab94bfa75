/**
 * The bounds of one expression (documented in ARCHITECTURE.md, "The workflow engine", and README.md).
 * Browser-safe: the builder's preview applies the same ones.
 */
export const expressionBudget = {
  /** Characters of one expression's source (also of the source given to `$eval`). */
  maxLength: 5_000,
  /** Run time of one expression, checked by JSONata between evaluation steps. */
  timeoutMs: 250,
  /** Evaluation frames (JSONata's `stack` guardrail). */
  maxDepth: 500,
  /** Items in one sequence or array (a range `[1..n]`, a mapped list, `$append`, `$split`…). */
  maxSequence: 100_000,
  /** Characters in any string an expression builds (`&`, built-ins) or hands to a built-in. */
  maxStringChars: 1_000_000,
  /** `$eval` inside `$eval`: levels. */
  maxEvalNesting: 4,
  /** Numbers inside a format picture (`$pad` widths and `[Y,9]`-style widths pad up to them). */
  maxPictureNumber: 1_000_000,
  maxResultBytes: 1_000_000,
  /**
   * Server side (the sandbox threads): a thread still on one expression this long after it began
   * is terminated, for what JSONata cannot interrupt (one built-in working for seconds).
   */
  hardLimitMs: 750,
} as const;
