/**
 * `toolgate init`: looks at the repository in the working directory (the root every other
 * command uses) and writes a starter toolgate.yml, the workflow and any starter OpenAPI
 * integration config. The I/O edge around the pure {@link detect} and {@link render}: nothing is
 * written over an existing file without `--force`, nothing outside the repository or through a
 * symbolic link, every write is atomic.
 */
import { lstat } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { writeFileAtomic } from '../contract/store.js';
import { escapeTerminalInline, guardLogOutput } from '../report/escape.js';
import { ConfigError } from '../util/errors.js';
import { resolveInside } from '../util/safe-path.js';
import { EXIT } from './types.js';
import { detect, LOOKED_FOR } from '../init/detect.js';
import { POLICY_FILE, render, WORKFLOW_FILE } from '../init/render.js';
import { scanRepository } from '../init/scan.js';

/** Flags of `toolgate init`. */
export interface InitFlags {
  force?: boolean;
  dryRun?: boolean;
}

const exists = async (p: string) => (await lstat(p).catch(() => undefined)) !== undefined;
const line = (s: string) => escapeTerminalInline(s, 500);

/**
 * Runs `toolgate init` in `root`.
 * @returns {@link EXIT}.clean when the files were written (or shown, with `dryRun`).
 * @throws ConfigError (exit 2) when a target exists and `force` is not set, or when a target is a
 *   symbolic link, a special file, or leads out of the repository.
 */
export async function init(flags: InitFlags, root = process.cwd()): Promise<number> {
  const scan = await scanRepository(root);
  const detection = detect(scan.repo);
  const out = render(detection);
  const files = [
    { path: POLICY_FILE, text: out.toolgateYml, what: 'the policy file' },
    { path: WORKFLOW_FILE, text: out.workflowYml, what: 'the workflow' },
    ...out.integrations.map((i) => ({ ...i, what: 'the integration config' })),
  ];
  // Where each write lands, checked before anything is written: inside the repository, not
  // through a link (also none planted at the target), not onto a directory or special file.
  const targets = await Promise.all(
    files.map((f) =>
      resolveInside(root, f.path, {
        what: f.what,
        display: f.path,
        fix: `Remove or replace ${f.path} (toolgate init writes only regular files inside the repository, never through a symbolic link).`,
      }),
    ),
  );
  const taken = [
    ...(await Promise.all(files.map(async (f, i) => ((await exists(targets[i] as string)) ? f.path : undefined)))).filter((p): p is string => p !== undefined),
  ];
  const yaml = await exists(join(root, 'toolgate.yaml'));

  const stdout: string[] = [];
  for (const n of [...scan.notes, ...detection.notes]) process.stderr.write(`toolgate: note: ${line(n)}\n`);
  await warnIfNotRepositoryRoot(root);
  stdout.push(...foundLines(detection.findings));

  if (flags.dryRun) {
    stdout.push('', 'Would write (--dry-run: nothing written):');
    for (const f of files) stdout.push('', `--- ${f.path}${taken.includes(f.path) ? ' (exists: needs --force)' : ''}`, f.text.trimEnd());
    process.stdout.write(guardLogOutput(`${stdout.join('\n')}\n`, 'text'));
    return EXIT.clean;
  }
  if ((taken.length || yaml) && !flags.force) throw existingFiles([...taken, ...(yaml ? ['toolgate.yaml'] : [])]);
  for (const [i, f] of files.entries()) {
    await writeFileAtomic(targets[i] as string, f.text, { what: f.what, display: f.path }).catch((e: Error) => {
      if (e instanceof ConfigError) throw e;
      throw new ConfigError(`cannot write ${f.path}: ${e.message}`, { file: f.path }, 'Check that the directory is writable.');
    });
    stdout.push(`${taken.includes(f.path) ? 'replaced' : 'wrote'} ${f.path}`);
  }
  if (yaml) process.stderr.write('toolgate: note: toolgate.yaml is still there; toolgate reads toolgate.yml first, so it is no longer used: remove it\n');
  // A bare `npx toolgate` where the project has not installed it fetches whatever npm package
  // holds that name (toolgate is installed from its repository).
  if (!(await exists(join(root, 'node_modules', 'toolgate')))) {
    stdout.push(
      '',
      'toolgate is not installed in this project: install it first (README, "Use it on your server"):',
      '  npm install --save-dev github:toolgate/toolgate#v0',
    );
  }
  stdout.push(
    '',
    'Next: review the TODO lines in toolgate.yml, then',
    '  npx toolgate update    # pin each source in .toolgate/<id>.surface.json: review it, commit it',
    '  npx toolgate check     # the live surface against the contract (exit 0 clean, 1 findings)',
  );
  process.stdout.write(guardLogOutput(`${stdout.join('\n')}\n`, 'text'));
  return EXIT.clean;
}

/** The refusal of `init` without --force: one error per existing file (the first carries the others). */
function existingFiles(paths: string[]): ConfigError {
  const errors = paths.map(
    (p) =>
      new ConfigError(
        'it already exists; toolgate init does not replace a file without --force',
        { file: p },
        'Pass --force to replace it (--dry-run shows what init would write), or edit your files by hand (README, "toolgate init").',
      ),
  );
  const [first, ...others] = errors as [ConfigError, ...ConfigError[]];
  first.others = others;
  return first;
}

/** What `init` found, as the lines it prints first. */
function foundLines(findings: ReturnType<typeof detect>['findings']): string[] {
  if (findings.length === 0) {
    return [
      `Found nothing to check. Looked for:`,
      ...LOOKED_FOR.map((l) => `  - ${l}`),
      `${POLICY_FILE} gets a placeholder source: replace it with how your server starts.`,
    ];
  }
  const locked = findings.filter((f) => f.pin?.state === 'locked');
  const unpinned = findings.filter((f) => f.pin?.state === 'unpinned');
  return [
    `Found ${findings.length} source${findings.length === 1 ? '' : 's'}:`,
    ...findings.map((f) => line(`  ${f.id}  ${f.what} (${f.file})${f.integration ? `, starter config ${f.integration.path}` : ''}`)),
    ...(locked.length ? ['', 'Pinned to the version the lockfile installs:', ...locked.map((f) => line(`  ${f.id}  ${f.pin?.text ?? ''}`))] : []),
    ...(unpinned.length
      ? [
          '',
          'Not pinned: each start may run another version (the TODO above each in toolgate.yml says how to pin it):',
          ...unpinned.map((f) => line(`  ${f.id}  ${f.pin?.text ?? ''}`)),
        ]
      : []),
  ];
}

/** GitHub runs workflows from the repository root only: say so when the working directory is below it. */
async function warnIfNotRepositoryRoot(root: string): Promise<void> {
  if (await exists(join(root, '.git'))) return;
  for (let dir = dirname(root); dir !== dirname(dir); dir = dirname(dir)) {
    if (!(await exists(join(dir, '.git')))) continue;
    const rel = relative(dir, root).split('\\').join('/');
    process.stderr.write(
      `toolgate: note: ${line(`the git repository starts at ${dir}: GitHub runs workflows only from its .github/workflows. Move ${WORKFLOW_FILE} there and set \`config: ${rel}/toolgate.yml\` on the toolgate step (and working-directory on the install steps)`)}\n`,
    );
    return;
  }
}
