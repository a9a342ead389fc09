/**
 * Error classes that map to the CLI's exit codes (docs/design.md §10):
 * 2 = usage or configuration error, 3 = a source failed.
 */

/** Where a configuration problem is, for the message and for annotations. */
export interface ErrorLocation {
  file: string;
  /** 1-based line, when known. */
  line?: number;
  /** 1-based column, when known. */
  column?: number;
  /** JSON pointer of the offending value, when known. */
  pointer?: string;
}

/** Formats `file:line:col (pointer)` for messages. */
export function formatLocation(loc: ErrorLocation): string {
  let s = loc.file;
  if (loc.line !== undefined) s += `:${loc.line}`;
  if (loc.line !== undefined && loc.column !== undefined) s += `:${loc.column}`;
  if (loc.pointer !== undefined && loc.pointer !== '') s += ` (at ${loc.pointer})`;
  return s;
}

/**
 * A mistake the user can fix in their files or arguments: exit code 2.
 * The message names the file, the line or JSON pointer, and the fix.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly exitCode = 2;
  constructor(
    message: string,
    readonly location?: ErrorLocation,
    readonly fix?: string,
    /** Catalog rule id when the mistake is also a rule (e.g. `unknown-operation`). */
    readonly ruleId?: string,
  ) {
    super(message);
  }

  /** Further problems found in the same file (schema validation reports them together). */
  others: ConfigError[] = [];
  /** Problems beyond `others` that were counted but not kept. */
  othersOmitted = 0;

  /** The full text shown to the user: {@link headline}, then `  also: ...` lines. */
  describe(): string {
    return `${this.headline()}${this.alsoLines()
      .map((l) => `\n  also: ${l}`)
      .join('')}`;
  }

  /** This problem alone: `file:line: message\n  fix: ...`. */
  headline(): string {
    const where = this.location ? `${formatLocation(this.location)}: ` : '';
    return `${where}${this.message}${this.fix ? `\n  fix: ${this.fix}` : ''}`;
  }

  /** One line per further problem (`file:line (at pointer): message`), and a count of the rest. */
  alsoLines(): string[] {
    const lines = this.others.map((o) => `${o.location ? `${formatLocation(o.location)}: ` : ''}${o.message}`);
    if (this.othersOmitted > 0) lines.push(`… and ${this.othersOmitted} more`);
    return lines;
  }
}
