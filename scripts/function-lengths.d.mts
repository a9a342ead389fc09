// Types of scripts/function-lengths.mjs, for test/function-lengths.test.ts.

/** A function longer than the limit. */
export interface LongFunction {
  /** Its name, or the variable, property or call that holds it. */
  name: string;
  /** `function`, `method`, `arrow function`, `function expression`, `constructor`, `getter` or `setter`. */
  kind: string;
  /** The 1-based line its declaration starts on (after its TSDoc). */
  line: number;
  /** Its length in lines, first line to closing brace. */
  lines: number;
  /** The reason of a one-line `// long: <reason>` comment on the line above it, if any. */
  reason: string | undefined;
}

/** The longest a function may be without a `// long:` comment (80). */
export declare const MAX_LINES: number;
/** Every function in one file's text longer than `max` lines. */
export declare function longFunctionsIn(fileName: string, text: string, max?: number): LongFunction[];
/** Every function over `max` lines in the .ts files under the given folders, with its file (relative to the repository). */
export declare function longFunctions(dirs: string[], max?: number): Array<LongFunction & { file: string }>;
