// Types of scripts/no-history.mjs, for test/no-history.test.ts.

/** One line that cites the tracker or a review session. */
export interface HistoryLine {
  /** 1-based line number. */
  line: number;
  /** What it cites: a tracker issue, a tracker number, a review round or session. */
  what: string;
  /** The line, trimmed. */
  text: string;
}

/** Files allowed to cite the tracker for now, each with the reason. */
export declare const ALLOWED: Map<string, string>;
/** Every tracker citation in one file's text. */
export declare function historyIn(text: string): HistoryLine[];
/** Every tracker citation under the given paths (relative to the repository), with its file. */
export declare function historyUnder(paths?: string[]): Array<HistoryLine & { file: string }>;
