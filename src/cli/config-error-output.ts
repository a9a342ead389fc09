/**
 * How the CLI shows a configuration error (exit 2): one line for the error, one for its fix, one
 * for each further problem of the same file. Loaded by the program (cli/program.ts) only when it
 * has one to show.
 * @module
 */
import { formatLocation, type ConfigError } from '../util/errors.js';
import { escapeTerminalInline } from '../report/escape.js';

/**
 * Writes `e` to stderr. Each line is escaped for a terminal on its own: the message quotes file
 * content (a policy key, an operationId), which in a CI log could otherwise start a line of its
 * own (`::set-output ...`) or carry escapes.
 */
export function writeConfigError(e: ConfigError): void {
  const where = e.location ? `${formatLocation(e.location)}: ` : '';
  process.stderr.write(`toolgate: error: ${escapeTerminalInline(where + e.message, 2000)}\n${e.fix ? `  fix: ${escapeTerminalInline(e.fix, 2000)}\n` : ''}`);
  for (const line of e.alsoLines()) process.stderr.write(`  also: ${escapeTerminalInline(line, 2000)}\n`);
}
