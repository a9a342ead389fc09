/**
 * `toolgate init`: what a client config's stdio command starts, and whether that is pinned to
 * one version (pure). A command that downloads its server when it starts (`npx`, `pnpm dlx`,
 * `bunx`, `uvx`, `pipx run`, `docker run`) runs whatever the registry serves under the name that
 * day unless the command names an exact version (or an image digest): such a start is unpinned.
 */
import { posix } from 'node:path';
import { isExactVersion, isNpmName } from './lockfile.js';

/** What a stdio command starts. */
export type Launch =
  /** An npm package fetched at start: `runner` as written (`npx -y`), the package, the version asked for (undefined: none). */
  | { kind: 'npm'; runner: string; name: string; version: string | undefined; bin?: string; rest: string[] }
  /** An npm runner given something that is not a registry package (a git URL, a path), or options this does not read. */
  | { kind: 'npm-other'; runner: string; spec: string }
  /** A Python package fetched at start (`uvx`, `uv tool run`, `pipx run`). */
  | { kind: 'python'; runner: string; spec: string; pinned: boolean }
  /** A container image (`docker run`, `podman run`): pinned by digest, by a tag only, or not at all. */
  | { kind: 'image'; runner: string; image: string; pin: 'digest' | 'tag' | 'none' }
  /** `node node_modules/<name>/...`: the copy the project installed. */
  | { kind: 'installed'; name: string }
  | { kind: 'plain' };

/** npm runner options that take the next argument as their value. */
const NPM_VALUE_OPTIONS = new Set(['--cache', '--registry', '--userconfig', '--workspace', '-w', '--prefix', '--loglevel']);
/** uv / pipx options that take the next argument as their value. */
const PY_VALUE_OPTIONS = new Set([
  '--with',
  '--with-editable',
  '--with-requirements',
  '--python',
  '-p',
  '--index',
  '--index-url',
  '--default-index',
  '--extra-index-url',
  '--find-links',
  '-f',
  '--constraints',
  '-c',
  '--overrides',
  '--directory',
  '--project',
  '--env-file',
  '--cache-dir',
  '--config-file',
  '--python-preference',
  '--index-strategy',
  '--keyring-provider',
  '--exclude-newer',
  '--resolution',
  '--prerelease',
  '--link-mode',
  '--color',
  '--allow-insecure-host',
  '--pip-args',
]);
/** `docker run` flags without a value (short ones may be combined: `-it`). */
const DOCKER_FLAGS = new Set([
  '--rm',
  '--init',
  '--interactive',
  '--tty',
  '--detach',
  '--privileged',
  '--read-only',
  '--publish-all',
  '--no-healthcheck',
  '--oom-kill-disable',
  '--sig-proxy',
  '--quiet',
  '-q',
]);

/** `[options] spec rest…` split at the first argument that is not an option (or its value). */
function firstOperand(args: readonly string[], takesValue: (opt: string) => boolean): { options: string[]; operand?: string; rest: string[] } {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--') return { options: args.slice(0, i), ...(i + 1 < args.length ? { operand: args[i + 1] } : {}), rest: args.slice(i + 2) };
    if (!a.startsWith('-') || a === '-') return { options: args.slice(0, i), operand: a, rest: args.slice(i + 1) };
    if (!a.includes('=') && takesValue(a)) i++;
  }
  return { options: [...args], rest: [] };
}

/** An npm package spec: `name`, `name@version-or-range-or-tag`, `@scope/name@…`. */
export function npmSpec(spec: string): { name: string; version: string | undefined } | undefined {
  const at = spec.indexOf('@', 1);
  const name = at === -1 ? spec : spec.slice(0, at);
  const version = at === -1 ? undefined : spec.slice(at + 1);
  return isNpmName(name) && version !== '' ? { name, version } : undefined;
}

/** npx / npm exec / pnpm dlx / yarn dlx / bunx: the package (`--package`/`-p` or the first operand), its bin and the server's arguments. */
function npmLaunch(runner: string, args: readonly string[]): Launch {
  const isPackage = (o: string) => o === '-p' || o === '--package' || o.startsWith('--package=');
  const { options, operand, rest } = firstOperand(args, (o) => NPM_VALUE_OPTIONS.has(o) || o === '-p' || o === '--package');
  // A shell command (`-c`, `--call`) or several packages is not a start this reads.
  if (options.some((o) => o === '-c' || o === '--call' || o.startsWith('--call=')) || options.filter(isPackage).length > 1)
    return { kind: 'npm-other', runner, spec: args.join(' ') };
  const at = options.findIndex(isPackage);
  const option = options[at];
  const packageValue = option === undefined ? undefined : option.startsWith('--package=') ? option.slice('--package='.length) : options[at + 1];
  const spec = packageValue ?? operand;
  const dropped = option === undefined ? [] : option.includes('=') ? [at] : [at, at + 1];
  const shown = [runner, ...options.filter((_, i) => !dropped.includes(i))].join(' ');
  if (spec === undefined) return { kind: 'plain' };
  const parsed = npmSpec(spec);
  if (!parsed) return { kind: 'npm-other', runner: shown, spec };
  const bin = packageValue !== undefined ? operand : undefined;
  return { kind: 'npm', runner: shown, ...parsed, ...(bin !== undefined ? { bin } : {}), rest };
}

/** A Python requirement pinned to one version: `name==1.2.3` (or `name[extra]==…`), or uvx's `name@1.2.3`. */
function pythonPinned(spec: string): boolean {
  const m = /^[A-Za-z0-9][A-Za-z0-9._-]*(\[[A-Za-z0-9._,-]*\])?(==|@)([^\s=<>!~*,;@]+)$/.exec(spec);
  return m !== null && m[3] !== 'latest' && /^\d/.test(m[3] as string);
}

/** uvx / uv tool run / pipx run: the package (`--from` / `--spec`, else the command) and whether it is pinned. */
function pythonLaunch(runner: string, args: readonly string[]): Launch {
  const { options, operand } = firstOperand(args, (o) => PY_VALUE_OPTIONS.has(o) || o === '--from' || o === '--spec');
  const fromAt = options.findIndex((o) => o === '--from' || o === '--spec');
  const fromEq = options.find((o) => o.startsWith('--from=') || o.startsWith('--spec='));
  const spec = fromAt !== -1 ? options[fromAt + 1] : fromEq !== undefined ? fromEq.slice(fromEq.indexOf('=') + 1) : operand;
  if (spec === undefined) return { kind: 'plain' };
  return { kind: 'python', runner: [runner, ...options].join(' '), spec, pinned: pythonPinned(spec) };
}

/** docker run / podman run: the image (the first operand after the options) and how it is pinned. */
function imageLaunch(runner: string, args: readonly string[]): Launch {
  const takesValue = (o: string) => !DOCKER_FLAGS.has(o) && !/^-[itdPq]+$/.test(o);
  const { operand } = firstOperand(args, takesValue);
  if (operand === undefined) return { kind: 'plain' };
  const lastSegment = operand.slice(operand.lastIndexOf('/') + 1);
  const pin = /@sha256:[0-9a-f]{64}$/.test(operand)
    ? 'digest'
    : /:[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/.test(lastSegment) && !/:latest$/.test(lastSegment)
      ? 'tag'
      : 'none';
  return { kind: 'image', runner, image: operand, pin };
}

/** What `command args` starts. */
export function parseLaunch(command: string, args: readonly string[]): Launch {
  const tool = posix.basename(command).replace(/\.(cmd|exe)$/i, '');
  const [first, second] = args;
  if (tool === 'npx' || tool === 'pnpx' || tool === 'bunx') return npmLaunch(tool, args);
  if (tool === 'npm' && (first === 'exec' || first === 'x')) return npmLaunch(`npm ${first}`, args.slice(1));
  if ((tool === 'pnpm' || tool === 'yarn') && first === 'dlx') return npmLaunch(`${tool} dlx`, args.slice(1));
  if (tool === 'bun' && first === 'x') return npmLaunch('bun x', args.slice(1));
  if (tool === 'uvx') return pythonLaunch('uvx', args);
  if (tool === 'uv' && first === 'tool' && second === 'run') return pythonLaunch('uv tool run', args.slice(2));
  if (tool === 'pipx' && first === 'run') return pythonLaunch('pipx run', args.slice(1));
  if ((tool === 'docker' || tool === 'podman') && first === 'run') return imageLaunch(`${tool} run`, args.slice(1));
  if (tool === 'node' && first !== undefined) {
    const m = /^(?:\.\/)?node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(first);
    if (m && isNpmName(m[1])) return { kind: 'installed', name: m[1] };
  }
  return { kind: 'plain' };
}

/** True when an npm launch names an exact version. */
export const npmPinned = (l: { version: string | undefined }) => isExactVersion(l.version);
