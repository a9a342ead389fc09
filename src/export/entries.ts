/**
 * Export entries given on the command line or as Action inputs, completed against a policy as
 * `exports:` entries are. Pure apart from the error.
 */
import { resolve } from 'node:path';
import type { ExportEntry, Policy } from '../config/policy-model.js';
import { ConfigError } from '../util/errors.js';
import { EXPORT_TARGETS, targetById } from './targets/index.js';

/** What `server:` may be in toolgate.yml (schema pattern), for `--server` too. */
export const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** @throws ConfigError naming the accepted targets. */
export function assertTarget(id: string, flag = '--to'): void {
  if (!targetById(id))
    throw new ConfigError(`${flag} ${JSON.stringify(id)} is not an export target`, undefined, `Use one of: ${EXPORT_TARGETS.map((t) => t.id).join(', ')}.`);
}

/**
 * The source an export is of: the one named, or the policy's only source.
 * @throws ConfigError for an unknown id, or none named when the policy has several.
 */
export function exportSource(policy: Pick<Policy, 'sources'>, id: string | undefined): string {
  const ids = policy.sources.map((s) => s.id);
  if (id !== undefined) {
    if (!ids.includes(id)) throw new ConfigError(`unknown source id "${id}"`, undefined, `Use one of: ${ids.join(', ') || '(none)'}.`);
    return id;
  }
  if (ids.length !== 1)
    throw new ConfigError(
      `toolgate.yml has ${ids.length} sources: say which one to export with --source ID`,
      undefined,
      `Use one of: ${ids.join(', ') || '(none)'}.`,
    );
  return ids[0] as string;
}

/** One entry from flags (`toolgate export --to`, `check --export FILE --to TARGET`). */
export function entryFrom(
  policy: Pick<Policy, 'sources'>,
  root: string,
  o: { to: string; file: string; source?: string; server?: string; gateway?: string },
): ExportEntry {
  assertTarget(o.to);
  if (o.server !== undefined && !SERVER_NAME.test(o.server))
    throw new ConfigError(
      `--server ${JSON.stringify(o.server)} is not a server name`,
      undefined,
      'Use letters, digits, ".", "_" and "-", starting with a letter or digit, at most 64 characters.',
    );
  if (o.gateway !== undefined && !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(o.gateway))
    throw new ConfigError(`--gateway ${JSON.stringify(o.gateway)} is not a Gateway name`, undefined, 'Use lower-case letters, digits and "-".');
  const source = exportSource(policy, o.source);
  return { to: o.to, file: resolve(root, o.file), source, server: o.server ?? source, ...(o.gateway !== undefined ? { gateway: o.gateway } : {}) };
}

/**
 * `--export FILE --to TARGET` pairs: files and targets in order, one `--to` for every file or a
 * single one for all.
 * @throws ConfigError when the counts do not pair up.
 */
export function pairExports(files: readonly string[], targets: readonly string[]): { file: string; to: string }[] {
  if (files.length === 0 && targets.length === 0) return [];
  if (targets.length === 0)
    throw new ConfigError(
      '--export needs --to TARGET: which format the file is in',
      undefined,
      `Add --to with one of: ${EXPORT_TARGETS.map((t) => t.id).join(', ')}.`,
    );
  if (files.length === 0) throw new ConfigError('--to goes with --export FILE', undefined, 'Name the committed export: --export FILE --to TARGET.');
  if (targets.length !== 1 && targets.length !== files.length)
    throw new ConfigError(
      `${files.length} --export files but ${targets.length} --to targets`,
      undefined,
      'Give one --to for every --export (in the same order), or a single --to for all.',
    );
  return files.map((file, i) => ({ file, to: (targets.length === 1 ? targets[0] : targets[i]) as string }));
}
