/**
 * What a server's own error output says about its sandbox, turned into the policy key that
 * would allow it: a write to a read-only place (`EROFS`, `EACCES`) is `writable:`, a file the
 * sandbox does not show (`ENOENT` on a path that exists on the host) is `readable:`, npm's empty
 * cache (`ENOTCACHED`) and a blocked registry are the npm cache recipe or `network: open`. Pure:
 * the caller gives the text and what it knows of the run.
 * @module
 */
import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import { within } from '../../util/repository-root.js';

/** The README section with the npm cache recipe. */
export const NPX_SECTION = 'README, "A server published on npm"';

/** What {@link containmentHints} knows of the run. */
export interface HintContext {
  /** The repository (toolgate.yml's directory), links resolved. */
  root: string;
  /** The server's scratch HOME (deleted after the run). */
  home?: string;
  /** Hosts the sandbox blocked, from the same output (see `blockedHosts`). */
  blocked: readonly string[];
  /** Whether the path exists on the host (a path the sandbox did not show); `existsSync` by default. */
  existsOnHost?: (path: string) => boolean;
}

/** What to do about a blocked registry. */
export const REGISTRY_FIX = `use the npm cache recipe (${NPX_SECTION}), or give the source \`network: open\``;

/** Registries that package managers fetch from at start-up (npx, uvx, pip). */
const REGISTRY_HOST = /(^|\.)(registry\.npmjs\.org|registry\.yarnpkg\.com|npmjs\.com|pypi\.org|pythonhosted\.org)$/;

/** One hint: the policy key (or README recipe) it points at, and what to tell the user. */
export interface ContainmentHint {
  key: 'writable' | 'readable' | 'npm-cache' | 'network';
  text: string;
  /** For `network`: the registries the sandbox blocked (the start failed installing the server). */
  registries?: string[];
}

/**
 * Hints for a sandboxed server's failure, one per kind, from its error output (`stderr`, its last
 * 4 KiB). Each names the policy key and the path as the source would write it.
 */
export function containmentHints(stderr: string, ctx: HintContext): ContainmentHint[] {
  const out: ContainmentHint[] = [];
  const shown = (p: string) => !(ctx.home && within(p, ctx.home));
  // Error messages name real paths (the sandbox mounts each at its real path).
  const root = realRoot(ctx.root);
  const inRepo = (p: string) => within(p, root);
  // Node's `EROFS: read-only file system, open '/x'`; npm's own "error writing to the directory: /x".
  const written =
    pathOf(stderr, /\b(?:EROFS|EACCES|EPERM)\b[^'"\n]*['"](?<path>\/[^'"\n]+)['"]/) ?? pathOf(stderr, /error writing to the directory: (?<path>\/[^\s'"]+)/);
  if (written && shown(written)) {
    out.push({
      key: 'writable',
      text: inRepo(written)
        ? `the sandbox keeps the repository read-only: to let the server write ${relative(root, written) || '.'}, name it (or its directory) in \`writable:\` (it must exist)`
        : `the server writes ${written}, which the sandbox keeps read-only; point it at a directory of the repository named in \`writable:\`, or at its HOME`,
    });
  }
  const missing = pathOf(stderr, /\bENOENT\b[^'"\n]*['"](?<path>\/[^'"\n]+)['"]/);
  if (missing && shown(missing) && !inRepo(missing) && (ctx.existsOnHost ?? existsSync)(missing)) {
    out.push({ key: 'readable', text: `the sandbox does not show ${missing}: if the server needs it, name it (or its directory) in \`readable:\`` });
  }
  if (/\bENOTCACHED\b|only-if-cached/.test(stderr)) {
    out.push({ key: 'npm-cache', text: `npm found no cached copy of the package: fill the npm cache before toolgate runs (${NPX_SECTION})` });
  }
  const registries = ctx.blocked.filter((h) => REGISTRY_HOST.test(h));
  if (registries.length) {
    out.push({ key: 'network', registries, text: `the sandbox has no network, so ${registries.join(', ')} cannot be reached: ${REGISTRY_FIX}` });
  } else if (ctx.blocked.length) {
    out.push({
      key: 'network',
      text: `the sandbox has no network (${ctx.blocked.join(', ')}): give the source \`network: open\` if listing its tools needs it`,
    });
  }
  return out;
}

/**
 * Hosts a sandboxed server failed to reach, as its own error output names them (Node's
 * `getaddrinfo ENOTFOUND host`, `EAI_AGAIN host`, `connect ENETUNREACH 1.2.3.4:443`): in a
 * network namespace with only loopback, every lookup and outside connection fails at once, and
 * the server's log is where the sandbox can see which host it wanted.
 */
export function blockedHosts(stderr: string): string[] {
  const out = new Set<string>();
  for (const m of stderr.matchAll(/\b(?:getaddrinfo (?:ENOTFOUND|EAI_AGAIN)|connect (?:ENETUNREACH|EHOSTUNREACH)) ([A-Za-z0-9._:[\]-]{1,255})/g))
    out.add(m[1]!);
  return [...out].slice(0, 20);
}

function realRoot(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    return root;
  }
}

/** The path an error line names (the group `path` of `re`), when it is absolute. */
function pathOf(text: string, re: RegExp): string | undefined {
  const p = re.exec(text)?.groups?.path;
  return p && isAbsolute(p) ? p : undefined;
}

/**
 * `text` with the scratch HOME's path written as `$HOME`: the directory is deleted after the run,
 * so a path in it (npm's "complete log of this run") leads nowhere the user can look.
 */
export function withoutScratchHome(text: string, home: string | undefined): string {
  return home ? text.split(home).join('$HOME') : text;
}

/** Characters of one piece of a running server's output looked at by {@link HintWatch} (as the stderr tail). */
const WATCH_CHARS = 4096;

/**
 * {@link containmentHints} for a server that keeps running (the proxy's): fed its error output and
 * the text of its failed tool calls as they come, it returns each kind of hint once, the first
 * time the text shows it.
 */
export class HintWatch {
  private readonly said = new Set<string>();
  constructor(private readonly ctx: Omit<HintContext, 'blocked'>) {}

  /** The hints `text` shows that were not given yet. */
  feed(text: string): ContainmentHint[] {
    const tail = text.length > WATCH_CHARS ? text.slice(-WATCH_CHARS) : text;
    return containmentHints(tail, { ...this.ctx, blocked: blockedHosts(tail) }).filter((h) => !this.said.has(h.key) && this.said.add(h.key));
  }
}
