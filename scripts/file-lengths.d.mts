// Types of scripts/file-lengths.mjs, for test/file-lengths.test.ts.

/** The longest a file of src/ may be (600 lines). */
export declare const MAX_FILE_LINES: number;
/** Files over the limit for now, each with the reason it waits. */
export declare const ALLOWED: Map<string, string>;
/** Lines of a text; a final newline ends the last line. */
export declare function lineCount(text: string): number;
/** Every .ts file under the given folders (relative to the repository), with its line count. */
export declare function fileLengths(dirs?: string[]): Array<{ file: string; lines: number }>;
/** Files over `max` that are not allowed, and allowed files that are no longer over. */
export declare function fileLengthProblems(lengths: Array<{ file: string; lines: number }>, max?: number, allowed?: Map<string, string>): string[];
