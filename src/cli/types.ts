/** Exit codes (docs/design.md §10). */
export const EXIT = { clean: 0, findings: 1, usage: 2, sourceFailed: 3 } as const;

/** Report formats of the CLI (docs/design.md §6: terminal, `--format json|sarif|markdown`). */
export type Format = 'text' | 'json' | 'markdown' | 'sarif';
/** Every {@link Format}, as `--format` accepts them. */
export const FORMAT_VALUES: readonly Format[] = ['text', 'json', 'markdown', 'sarif'];
/** Formats of `toolgate rules` (the catalog has no findings to put in SARIF). */
export type RulesFormat = Exclude<Format, 'sarif'>;

/** Flags that choose the source(s). */
export interface SourceFlags {
  config?: string;
  source?: string[];
  toolsJson?: string;
  openapi?: string;
  url?: string;
  env?: string[];
  capabilities?: string;
  id?: string;
}
