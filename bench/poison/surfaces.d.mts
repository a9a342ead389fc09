/** Types of surfaces.mjs, for the tests that read it. */
export interface BenchSurface {
  /** `docker`, `recorded`, `guardbench-benign`, `mcpsecbench-benign`, `handwritten-benign`, …, `poison`. */
  set: string;
  name: string;
  tools: { name: string; [key: string]: unknown }[];
  instructions?: string;
}
/** Every surface bench/poison audits; the test split's cases only when `test`. */
export function surfaces(options?: { test?: boolean }): BenchSurface[];
