/**
 * Reads an OpenAPI document and the files its `$ref`s name, inside the repository and nowhere
 * else: the document and its references are pull-request content, and what toolgate reads can end
 * up in the contract, the report and a PR comment.
 *
 * Every local file (the document itself and each `$ref` target, relative path, absolute path or
 * `file:` URL alike) goes through {@link RepoFiles.load}:
 * 1. The path is resolved lexically (`..` collapsed, as the parser's URL resolution does) and must
 *    lie inside the repository root (the root as given or its real path).
 * 2. It is walked one component at a time from the root's real path; each component inside the
 *    root is `lstat`ed and a symbolic link is followed by reading it (`readlink`), never by
 *    opening. A step that leaves the root refuses the reference there: nothing outside the root
 *    is ever `lstat`ed, opened or read, so the refusal says the same whether the outside file
 *    exists or not (no existence oracle). More than 40 links: refused as a loop.
 * 3. The resolved file must be a regular file (`lstat`, before any `open`): a FIFO, a character
 *    or block device (`/dev/zero`), a socket or a directory is refused. It is opened with
 *    `O_NOFOLLOW | O_NONBLOCK | O_NOCTTY` (a FIFO swapped in after the check cannot block the
 *    open) and `fstat`ed: device and inode must be the ones checked, else refused.
 * 4. Size caps: {@link MAX_FILE_BYTES} per file (checked on `lstat` and again while reading),
 *    {@link MAX_TOTAL_BYTES} over every file and remote document of one load, at most
 *    {@link MAX_FILES} files.
 * 5. The bytes are parsed by `@readme/openapi-parser` itself (the same JSON/YAML parsers, same
 *    results as before), then measured ({@link expandedSize}): YAML aliases are shared objects
 *    after parsing, so a "billion laughs" document parses in milliseconds but explodes in every
 *    later walk. A document whose alias-expanded size (values + characters of keys and strings)
 *    exceeds {@link MAX_EXPANDED_SIZE} (= the per-file byte cap: without aliases a document can
 *    never be larger than its text), that is deeper than {@link MAX_JSON_DEPTH}, or that contains
 *    itself (a recursive alias) is refused before anything walks it.
 * 6. Parsed files are cached by real path; the parser's file resolver ({@link RepoFiles.fileResolver})
 *    serves the parsed value from the cache, so `bundle()` and validation see exactly what was
 *    checked, and a file the pre-walk did not see (a `$ref` resolved against a `$id`) goes through
 *    the same steps.
 *
 * Refusals are {@link ConfigError}s (exit 2) located at the `$ref` (file, JSON pointer and line
 * when the referring file is small enough to index) and naming the integration config; a missing
 * file inside the repository and unparsable content stay {@link SourceError} `load-failed`.
 * Nothing from a refused file reaches a message: it is never read.
 *
 * Time: one deadline per load (default {@link DEFAULT_LOAD_TIMEOUT_MS}), checked before every
 * file and between phases, and given to the parser (`timeoutMs`, checked while dereferencing).
 * Parsing one file is synchronous and cannot be interrupted; the size caps bound it (parsing is
 * linear in the text, and aliases are not expanded while parsing). Validation measures what the
 * parser will build from the part it validates first (deref-size.ts: a "reference bomb" is
 * refused in milliseconds instead of walking past the deadline).
 *
 * The walk of steps 1-2 is repo-path.ts, the measure of step 5 expanded-size.ts; this module reads,
 * caches and serves the files to the parser.
 *
 * What is not defended: a concurrent process rewriting the checkout while toolgate reads it (the
 * dev/inode check still guarantees the bytes come from the file that was checked), hard links
 * (git cannot commit one).
 */
import { constants } from 'node:fs';
import { lstat, open, realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, type ParserOptions } from '@readme/openapi-parser';
import { isMap, isNode, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import { ConfigError, type ErrorLocation } from '../../util/errors.js';
import { SourceError } from '../source-error.js';
import { MAX_JSON_DEPTH } from '../../util/json-file.js';
import { pointerSegments } from '../../util/json.js';
import { fetchCapped, RemoteError } from './remote.js';
import { expandedSize, MAX_EXPANDED_SIZE } from './expanded-size.js';
import { fileKind, locateForOneLoad, MAX_LINKS, shown, type Located } from './repo-path.js';

/** Largest file (document or referenced file) toolgate reads: 64 MiB. */
export const MAX_FILE_BYTES = 64 * 1024 * 1024;
/** Largest total of all files and remote documents read for one document: 256 MiB. */
export const MAX_TOTAL_BYTES = 256 * 1024 * 1024;
/** Most files (local and remote) one document may consist of. */
export const MAX_FILES = 10_000;
/** Time for loading one document with everything it references (and, separately, validating it). */
export const DEFAULT_LOAD_TIMEOUT_MS = 60_000;
/** Time for fetching one remote `$ref` target (`allow-remote-refs`), redirects included. */
export const REMOTE_TIMEOUT_MS = 20_000;
/** Largest remote `$ref` target. */
const MAX_REMOTE_BYTES = MAX_FILE_BYTES;
/** Referring files up to this size are indexed to give a refused `$ref`'s line. */
const MAX_LINE_INDEX_BYTES = 4 * 1024 * 1024;

const MIB = 1024 * 1024;

/** Where a `$ref` is written. */
export interface RefSite {
  /** The `$ref` value as written. */
  ref: string;
  /** The referring file (absolute). */
  file: string;
  /** JSON pointer of the `$ref` member in that file (`/paths/~1pets/get/$ref`); '' when unknown. */
  pointer: string;
  /** The base the parser resolved the ref against when it is not the referring file (a `$id`). */
  base?: string;
}

/** `$ref "x" at file#pointer` (or `at file (resolved against base)`), for messages. */
export function describeSite(site: RefSite): string {
  const at = site.pointer === '' ? shown(site.file) : `${shown(site.file)}#${site.pointer}`;
  return `$ref ${JSON.stringify(site.ref)} at ${at}${site.base !== undefined ? ` (resolved against ${site.base})` : ''}`;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function mib(n: number): string {
  return `${Math.round((n / MIB) * 10) / 10} MiB`;
}

/**
 * A `$ref` target as the parser hands it to a resolver (URL-encoded path or `file:` URL) → the
 * path it names. Mirrors the parser's own decoding; whatever comes out is checked and is exactly
 * what is read.
 */
export function urlToPath(url: string): string {
  if (/^file:/i.test(url)) return fileURLToPath(url);
  let p = url.replace(/%(?![0-9A-Fa-f]{2})/g, '%25');
  p = decodeURI(p);
  for (const [enc, dec] of [
    ['%23', '#'],
    ['%24', '$'],
    ['%26', '&'],
    ['%2C', ','],
    ['%40', '@'],
  ] as const) {
    p = p.split(enc).join(dec).split(enc.toLowerCase()).join(dec);
  }
  return p;
}

/** True for what the parser treats as a file path (no `scheme://`, or `file://`). */
function isFileUrl(url: string): boolean {
  const m = /^(\w{2,}):\/\//i.exec(url);
  return !m || m[1]!.toLowerCase() === 'file';
}

function isHttpUrl(url: string): boolean {
  return /^https?:\/\//i.test(url);
}

/** The parser's `FileInfo`, as far as resolvers use it. */
interface FileInfo {
  url: string;
  reference?: string;
  baseUrl?: string;
}

/** A resolver plugin in the parser's (json-schema-ref-parser's) format. */
export interface ResolverPlugin {
  order: number;
  canRead: boolean | ((file: FileInfo) => boolean);
  read: (file: FileInfo) => unknown;
}

/** Options of {@link RepoFiles}. */
export interface RepoFilesOptions {
  /** Repository root (absolute, or relative to the working directory). */
  root: string;
  /** Prefix of every message, e.g. `integration.json:4 (spec): `. */
  context?: string;
  /** Time for the load, from now, in milliseconds. Default {@link DEFAULT_LOAD_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Fetch `http(s)` `$ref`s (within the remote caps). Default false. */
  allowRemoteRefs?: boolean;
  /** Tests only: let remote refs reach loopback/private addresses. */
  allowPrivateAddresses?: boolean;
  /** The document (absolute): where a refused `$ref` is said to be when the parser cannot tell. */
  document?: string;
}

/** The files of one document load, confined to a repository (module comment). */
export class RepoFiles {
  readonly root: string;
  private readonly ctx: string;
  readonly deadline: number;
  private readonly timeoutMs: number;
  private readonly allowRemote: boolean;
  private readonly allowPrivate: boolean;
  private readonly document: string | undefined;
  /** Lexical paths of the files loaded: the referring files a `$ref` can be located in. */
  private readonly loaded = new Set<string>();
  /** Remote documents fetched (`allowRemoteRefs`), by URL. */
  private readonly fetched = new Set<string>();
  private rootReal: Promise<string> | undefined;
  private readonly cache = new Map<string, Promise<unknown>>();
  /** Steps 1-2 for this load, each path and directory walked once (repo-path.ts). */
  private readonly locate = locateForOneLoad();
  private totalBytes = 0;
  private totalExpanded = 0;
  private files = 0;
  /**
   * The first error one of our resolvers threw while the parser was running: the parser wraps
   * errors in its own, so the caller rethrows this one (with its class and location) instead.
   */
  failure: Error | undefined;

  constructor(opts: RepoFilesOptions) {
    this.root = resolve(opts.root);
    this.ctx = opts.context ?? '';
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS;
    this.deadline = Date.now() + this.timeoutMs;
    this.allowRemote = opts.allowRemoteRefs === true;
    this.allowPrivate = opts.allowPrivateAddresses === true;
    this.document = opts.document === undefined ? undefined : resolve(opts.document);
  }

  /**
   * Every file read so far, as the lexical absolute path it was asked for (links not resolved:
   * the path a repository's history knows), and every remote document fetched, as its URL.
   */
  read(): string[] {
    return [...this.loaded, ...this.fetched];
  }

  /** Milliseconds left before the deadline (at least 1). */
  remaining(): number {
    return Math.max(1, this.deadline - Date.now());
  }

  /** @throws SourceError `load-failed` once the deadline has passed. */
  checkDeadline(what: string): void {
    if (Date.now() > this.deadline) {
      throw new SourceError(
        `${this.ctx}${what}: reading the OpenAPI document and the files it references took longer than toolgate's limit (${Math.max(0, this.timeoutMs) / 1000} s); the document is too large or too complex`,
        'load-failed',
      );
    }
  }

  /** The root's real path (symbolic links resolved). */
  realRoot(): Promise<string> {
    this.rootReal ??= realpath(this.root).catch((e: unknown) => {
      throw new SourceError(
        `${this.ctx}the repository root ${this.root} cannot be read (${(e as NodeJS.ErrnoException).code ?? message(e)})`,
        'load-failed',
        undefined,
        { cause: e },
      );
    });
    return this.rootReal;
  }

  /** A refusal located at `site` (a `$ref`) or, for the document itself, at the document. */
  private async refused(path: string, site: RefSite | undefined, reason: string, fix: string): Promise<ConfigError> {
    if (!site) return new ConfigError(`${this.ctx}OpenAPI document ${shown(path)} refused: ${reason}`, { file: path }, fix);
    const line = site.pointer === '' ? undefined : await this.lineOf(site);
    const location: ErrorLocation = { file: site.file, ...(line !== undefined ? { line } : {}), ...(site.pointer !== '' ? { pointer: site.pointer } : {}) };
    // The location names the file, line and pointer; the message names the ref as written.
    const what = site.pointer === '' ? describeSite(site) : `$ref ${JSON.stringify(site.ref)}`;
    return new ConfigError(`${this.ctx}${what} refused: ${reason}`, location, fix);
  }

  private unreadable(path: string, site: RefSite | undefined, e: unknown): SourceError {
    const why = (e as NodeJS.ErrnoException).code ?? message(e);
    return new SourceError(`${this.ctx}${site ? `${describeSite(site)}: ` : ''}cannot read ${shown(path)} (${why})`, 'load-failed', undefined, { cause: e });
  }

  private notFound(path: string, site: RefSite | undefined): SourceError {
    return new SourceError(
      site ? `${this.ctx}${describeSite(site)}: file not found: ${shown(path)}` : `${this.ctx}OpenAPI document not found: ${shown(path)}`,
      'load-failed',
    );
  }

  /**
   * The real path of `path` after checking it lies inside the repository (steps 1-2).
   * @throws ConfigError outside the repository or a symbolic link loop; SourceError when missing.
   */
  async confine(path: string, site?: RefSite): Promise<string> {
    const rootReal = await this.realRoot();
    let where: Located;
    try {
      where = await this.locate(path, this.root, rootReal);
    } catch (e) {
      throw this.unreadable(path, site, e);
    }
    switch (where.kind) {
      case 'inside':
        return where.real;
      case 'missing':
        throw this.notFound(path, site);
      case 'loop':
        throw await this.refused(
          path,
          site,
          `resolving it follows more than ${MAX_LINKS} symbolic links (a loop)`,
          'point the reference at a regular file inside the repository',
        );
      case 'outside':
        throw await this.refused(
          path,
          site,
          where.viaLink
            ? `it goes through a symbolic link that points outside the repository (${shown(rootReal)}); toolgate reads no file outside it`
            : `it names a path outside the repository (${shown(rootReal)}); toolgate reads no file outside it`,
          'keep the document and every file it references inside the repository (commit a copy and reference it by a relative path); symbolic links must point inside the repository too',
        );
    }
  }

  /** Reads a checked regular file within the caps (steps 3-4). */
  private async readRegular(real: string, path: string, site: RefSite | undefined): Promise<Buffer> {
    try {
      return await this.readRegularUnsafe(real, path, site);
    } catch (e) {
      if (e instanceof ConfigError || e instanceof SourceError) throw e;
      throw this.unreadable(path, site, e);
    }
  }

  private async readRegularUnsafe(real: string, path: string, site: RefSite | undefined): Promise<Buffer> {
    const st = await lstat(real);
    if (!st.isFile()) {
      throw await this.refused(
        path,
        site,
        `it is ${fileKind(st)}, not a regular file; toolgate reads only regular files (never devices, pipes, sockets or directories)`,
        'reference a regular file committed to the repository',
      );
    }
    const tooLarge = (size: string) =>
      this.refused(
        path,
        site,
        `the file is ${size}, more than the ${mib(MAX_FILE_BYTES)} toolgate reads per file`,
        'trim or split the document: toolgate reads at most 64 MiB per file',
      );
    if (st.size > MAX_FILE_BYTES) throw await tooLarge(mib(st.size));
    if (this.totalBytes + st.size > MAX_TOTAL_BYTES) throw await this.tooMuch(path, site);
    if (++this.files > MAX_FILES) throw await this.refused(path, site, `the document references more than ${MAX_FILES} files`, 'reference fewer files');
    const flags = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);
    const fh = await open(real, flags);
    try {
      const fst = await fh.stat();
      if (!fst.isFile() || fst.dev !== st.dev || fst.ino !== st.ino) {
        throw await this.refused(path, site, 'the file changed while toolgate was checking it', 'do not modify the checkout while toolgate runs');
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for (;;) {
        const chunk = Buffer.allocUnsafe(Math.min(4 * MIB, MAX_FILE_BYTES + 1 - size));
        const { bytesRead } = await fh.read(chunk, 0, chunk.length, null);
        if (bytesRead === 0) break;
        size += bytesRead;
        chunks.push(bytesRead === chunk.length ? chunk : chunk.subarray(0, bytesRead));
        if (size > MAX_FILE_BYTES) throw await tooLarge(`more than ${mib(MAX_FILE_BYTES)}`);
      }
      this.totalBytes += size;
      if (this.totalBytes > MAX_TOTAL_BYTES) throw await this.tooMuch(path, site);
      return Buffer.concat(chunks, size);
    } finally {
      await fh.close();
    }
  }

  private tooMuch(path: string, site: RefSite | undefined): Promise<ConfigError> {
    return this.refused(
      path,
      site,
      `the document and the files it references total more than ${mib(MAX_TOTAL_BYTES)}`,
      'trim the document: toolgate reads at most 256 MiB per OpenAPI document, references included',
    );
  }

  /** Parses bytes with the parser's own JSON/YAML parsers (`name` picks the parser by extension). */
  private async parseBytes(name: string, bytes: Buffer, remote: boolean): Promise<unknown> {
    const oneShot = { order: 1, canRead: true, read: () => bytes };
    const resolveOpts = remote ? { external: false, http: oneShot } : { external: false, file: oneShot };
    try {
      return await parse(name, { resolve: resolveOpts } as unknown as ParserOptions);
    } catch (e) {
      throw new SourceError(`${this.ctx}cannot parse ${remote ? name : shown(name)}: ${message(e)}`, 'load-failed', undefined, { cause: e });
    }
  }

  /** Step 5: refuses a parsed value that aliases make too large, too deep, or infinite. */
  private async checkExpansion(value: unknown, path: string, site: RefSite | undefined): Promise<void> {
    const left = MAX_TOTAL_BYTES - this.totalExpanded;
    const r = expandedSize(value, { limit: Math.min(MAX_EXPANDED_SIZE, left) });
    if ('size' in r) {
      this.totalExpanded += r.size;
      return;
    }
    const what = site ? `the file ${shown(path)}` : 'it';
    const aliasFix = 'remove the YAML anchors and aliases (&name / *name) that multiply the document, or write the values out';
    if (r.kind === 'cycle') throw await this.refused(path, site, `${what} contains itself through a recursive YAML alias`, aliasFix);
    if (r.kind === 'too-deep')
      throw await this.refused(
        path,
        site,
        `${what} is nested deeper than ${MAX_JSON_DEPTH} levels`,
        'flatten the document (name deep schemas under components and reference them)',
      );
    if (left < MAX_EXPANDED_SIZE) {
      throw await this.refused(
        path,
        site,
        `with it, the files of the document expand to more than ${mib(MAX_TOTAL_BYTES)} of values`,
        'reference fewer or smaller files, without YAML aliases that multiply them',
      );
    }
    throw await this.refused(
      path,
      site,
      `${what} expands to more than ${mib(MAX_EXPANDED_SIZE)} of values: YAML aliases (*name) repeat the nodes they name (a "billion laughs" document)`,
      aliasFix,
    );
  }

  /**
   * Reads, parses and checks one local file (the document itself when `site` is absent), once per
   * real path. The path is taken as the parser gives it, resolved against the working directory.
   */
  load(path: string, site?: RefSite): Promise<unknown> {
    return this.loadChecked(resolve(path), site);
  }

  private async loadChecked(path: string, site: RefSite | undefined): Promise<unknown> {
    this.checkDeadline(`reading ${shown(path)}`);
    const real = await this.confine(path, site);
    this.loaded.add(path);
    let pending = this.cache.get(real);
    if (!pending) {
      pending = (async () => {
        const bytes = await this.readRegular(real, path, site);
        this.checkDeadline(`parsing ${shown(path)}`);
        const value = await this.parseBytes(path, bytes, false);
        await this.checkExpansion(value, path, site);
        return value;
      })();
      this.cache.set(real, pending);
    }
    return pending;
  }

  /** Fetches, parses and checks one remote `$ref` target (only with `allowRemoteRefs`). */
  loadRemote(url: string, site?: RefSite): Promise<unknown> {
    let pending = this.cache.get(url);
    if (!pending) {
      pending = this.fetchRemote(url, site);
      this.cache.set(url, pending);
    }
    return pending;
  }

  private async fetchRemote(url: string, site: RefSite | undefined): Promise<unknown> {
    const what = site ? describeSite(site) : `remote document ${url}`;
    if (!this.allowRemote) {
      throw new SourceError(
        `${this.ctx}${what} refused: toolgate does not fetch documents over the network unless remote refs are allowed (\`allow-remote-refs: true\` in toolgate.yml)`,
        'load-failed',
      );
    }
    this.checkDeadline(`fetching ${url}`);
    this.fetched.add(url);
    if (++this.files > MAX_FILES) throw await this.refused(url, site, `the document references more than ${MAX_FILES} files`, 'reference fewer files');
    let bytes: Buffer;
    try {
      bytes = await fetchCapped(url, {
        maxBytes: Math.min(MAX_REMOTE_BYTES, MAX_TOTAL_BYTES - this.totalBytes),
        timeoutMs: Math.min(REMOTE_TIMEOUT_MS, this.remaining()),
        allowPrivateAddresses: this.allowPrivate,
      });
    } catch (e) {
      if (!(e instanceof RemoteError)) throw e;
      if (e.kind === 'unsafe')
        throw await this.refused(
          url,
          site,
          `${e.message}; toolgate fetches only public http(s) addresses`,
          'reference a public URL, or commit the document to the repository and reference it by a relative path',
        );
      if (e.kind === 'too-large')
        throw await this.refused(
          url,
          site,
          `${e.message}: toolgate downloads at most ${mib(MAX_REMOTE_BYTES)} per remote document and ${mib(MAX_TOTAL_BYTES)} in all`,
          'commit a trimmed copy to the repository and reference it by a relative path',
        );
      throw new SourceError(
        `${this.ctx}cannot fetch ${what}: ${e.message}${e.kind === 'timeout' ? ` (limit ${Math.round(Math.min(REMOTE_TIMEOUT_MS, this.deadline - Date.now() + 1) / 1000)} s)` : ''}`,
        'load-failed',
        undefined,
        { cause: e },
      );
    }
    this.totalBytes += bytes.length;
    const value = await this.parseBytes(url, bytes, true);
    await this.checkExpansion(value, url, site);
    return value;
  }

  /** Where the parser says a `$ref` is: its text and the referring file and pointer. */
  private siteOf(file: FileInfo): RefSite | undefined {
    if (file.reference === undefined || file.baseUrl === undefined) return undefined;
    const hash = file.baseUrl.indexOf('#');
    const base = hash >= 0 ? file.baseUrl.slice(0, hash) : file.baseUrl;
    const pointer = hash >= 0 ? file.baseUrl.slice(hash + 1) : '';
    let referrer: string;
    try {
      referrer = isHttpUrl(base) ? base : resolve(urlToPath(base));
    } catch {
      referrer = base;
    }
    if (this.loaded.has(referrer) || this.cache.has(referrer)) return { ref: file.reference, file: referrer, pointer: `${pointer}/$ref` };
    // Resolved against a base that is no file of the document (a `$id`): say so, in the document.
    return { ref: file.reference, file: this.document ?? referrer, pointer: '', base: file.baseUrl };
  }

  /** Runs a resolver body, remembering its error for {@link failure}. */
  private async guarded(run: () => Promise<unknown>): Promise<unknown> {
    try {
      return await run();
    } catch (e) {
      this.failure ??= e instanceof Error ? e : new Error(String(e));
      throw e;
    }
  }

  /** The parser's file resolver: every local file goes through {@link load}. */
  fileResolver(): ResolverPlugin {
    return {
      order: 100,
      canRead: (file) => isFileUrl(file.url),
      read: (file) =>
        this.guarded(async () => {
          let path: string;
          const site = this.siteOf(file);
          try {
            path = urlToPath(file.url);
          } catch (e) {
            throw await this.refused(
              file.url,
              site,
              `it is not a valid file path or file: URL (${message(e)})`,
              'write a relative path to a file inside the repository',
            );
          }
          return this.load(path, site);
        }),
    };
  }

  /** The parser's HTTP resolver: refuses, or fetches within the remote caps. */
  httpResolver(): ResolverPlugin {
    return {
      order: 200,
      canRead: (file) => this.allowRemote && isHttpUrl(file.url),
      read: (file) => this.guarded(() => this.loadRemote(file.url, this.siteOf(file))),
    };
  }

  /** Line of a `$ref` in its file (small files only; undefined when unknown). */
  private async lineOf(site: RefSite): Promise<number | undefined> {
    if (isHttpUrl(site.file)) return undefined;
    try {
      const real = await this.confine(site.file);
      const st = await lstat(real);
      if (!st.isFile() || st.size > MAX_LINE_INDEX_BYTES) return undefined;
      const fh = await open(real, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
      let text: string;
      try {
        const fst = await fh.stat();
        if (!fst.isFile() || fst.ino !== st.ino || fst.dev !== st.dev || fst.size > MAX_LINE_INDEX_BYTES) return undefined;
        text = await fh.readFile('utf8');
      } finally {
        await fh.close();
      }
      const lc = new LineCounter();
      const doc = parseDocument(text, { lineCounter: lc, uniqueKeys: false, prettyErrors: false });
      // Walk the pointer by hand: map keys compare as strings (`'200'`), sequences take indexes.
      const segs = pointerSegments(site.pointer);
      let node: unknown = doc.contents;
      let line: number | undefined;
      for (const seg of segs) {
        if (isMap(node)) {
          const pair = node.items.find((p) => String(isScalar(p.key) ? p.key.value : p.key) === seg);
          if (!pair) break;
          if (isNode(pair.key) && pair.key.range) line = lc.linePos(pair.key.range[0]).line;
          node = pair.value;
        } else if (isSeq(node) && /^\d+$/.test(seg)) {
          node = node.items[Number(seg)];
          if (isNode(node) && node.range) line = lc.linePos(node.range[0]).line;
        } else {
          break;
        }
      }
      return line;
    } catch {
      // no line then
    }
    return undefined;
  }
}
