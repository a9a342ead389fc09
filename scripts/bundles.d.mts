// Types of scripts/bundles.mjs, for the tests that import it.
import type { BuildOptions } from 'esbuild';

/** The repository root: the builds' working directory. */
export declare const ROOT: string;
/** The esbuild options of dist/ (without `write` and `metafile`). */
export declare function bundleOptions(): Promise<BuildOptions[]>;
/** Module specifiers the given built files import that are not part of Node, with the files that do. */
export declare function bareImports(files: string[]): Promise<Map<string, string[]>>;
/** A built file's text without the require/__filename/__dirname banner when nothing after it uses them. */
export declare function withoutUnusedBanner(text: string): string;
