/**
 * A fake GitHub REST API over real HTTP (node:http on 127.0.0.1, random port), for tests of
 * `src/github/*` and the Action end to end. Each test starts its own instance, so tests run in
 * parallel safely.
 *
 * Served (shapes follow GitHub's REST reference / @octokit/openapi examples):
 * - GET    /repos/{o}/{r}/pulls/{n}                 pull request
 * - GET    /repos/{o}/{r}/pulls/{n}/reviews         reviews, paginated (per_page ≤ 100, Link header)
 * - GET    /repos/{o}/{r}/pulls/{n}/commits         commits with author/committer logins and parents (`prCommits`)
 * - GET    /repos/{o}/{r}/issues/{n}/comments       comments, paginated (ascending id)
 * - POST   /repos/{o}/{r}/issues/{n}/comments       create (422 over 65,536 characters)
 * - PATCH  /repos/{o}/{r}/issues/comments/{id}      update
 * - POST   /repos/{o}/{r}/check-runs                create (422 over 50 annotations / 65,535-char summary)
 * - PATCH  /repos/{o}/{r}/check-runs/{id}           update, appending annotations
 * - GET    /orgs/{org}/teams/{slug}/members         team members, paginated (404 for an unknown team)
 * - GET    /repos/{o}/{r}/collaborators/{u}/permission  `permission` (base role) and `role_name`
 *   (highest role); a login never granted anything has `read` (as on a public repository)
 * - GET    /repos/{o}/{r}/contents/{path}?ref=SHA   raw file content at a commit (`files`; 404 when absent)
 * Every request is recorded (method, path, query, parsed body, headers). Failures can be
 * scripted per route: {@link FakeGitHub.fail} with {@link failures} presets.
 */
import { spawnSync } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach } from 'vitest';
import { createGitHubClient } from '../../src/github/client.js';

/** One request as the fake saw it. */
export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: Record<string, string>;
  /** Parsed JSON body (undefined when none). */
  body: unknown;
  headers: IncomingHttpHeaders;
}

/** A scripted failure: the next `times` requests matching `method` + `path` get this response. */
export interface ScriptedFailure {
  method?: string;
  /** Matched against the path (no query): a RegExp, or a substring. */
  path: RegExp | string;
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Default 1. */
  times?: number;
  /** Never answer (the client's timeout must fire); `status` is ignored. */
  hang?: boolean;
}

/** Response presets for scripted failures, as GitHub sends them. */
export const failures = {
  /** A read-only token (fork PR) writing checks or comments. */
  forbidden: (): Omit<ScriptedFailure, 'path'> => ({
    status: 403,
    body: {
      message: 'Resource not accessible by integration',
      documentation_url: 'https://docs.github.com/rest/checks/runs#create-a-check-run',
      status: '403',
    },
  }),
  /** Secondary rate limit (403) with `retry-after`. */
  secondaryRateLimit: (retryAfterSeconds = 1): Omit<ScriptedFailure, 'path'> => ({
    status: 403,
    headers: { 'retry-after': String(retryAfterSeconds) },
    body: {
      message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
      documentation_url: 'https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
    },
  }),
  /** 429 with `retry-after`. */
  tooManyRequests: (retryAfterSeconds = 1): Omit<ScriptedFailure, 'path'> => ({
    status: 429,
    headers: { 'retry-after': String(retryAfterSeconds) },
    body: { message: 'You have exceeded a secondary rate limit.' },
  }),
  /** Primary rate limit exhausted: `x-ratelimit-remaining: 0` with a reset time (epoch s). */
  primaryRateLimit: (resetEpochSeconds: number): Omit<ScriptedFailure, 'path'> => ({
    status: 403,
    headers: {
      'x-ratelimit-limit': '1000',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-used': '1000',
      'x-ratelimit-reset': String(resetEpochSeconds),
      'x-ratelimit-resource': 'core',
    },
    body: { message: 'API rate limit exceeded for installation ID 1.' },
  }),
  serverError: (status = 500): Omit<ScriptedFailure, 'path'> => ({
    status,
    body: { message: status === 502 ? 'Server Error' : 'Internal Server Error' },
  }),
};

/** Stored review (REST shape). */
export interface FakeReview {
  id: number;
  node_id: string;
  user: { login: string; id: number; type: string } | null;
  body: string;
  state: string;
  html_url: string;
  pull_request_url: string;
  commit_id: string | null;
  submitted_at?: string;
  author_association: string;
}

/** Stored issue comment (REST shape). */
export interface FakeComment {
  id: number;
  node_id: string;
  url: string;
  html_url: string;
  issue_url: string;
  body: string;
  user: { login: string; id: number; type: string };
  created_at: string;
  updated_at: string;
  author_association: string;
}

/** Stored check run, with every annotation it received. */
export interface FakeCheckRun {
  id: number;
  name: string;
  head_sha: string;
  status: string;
  conclusion: string | null;
  output: { title?: string; summary?: string; text?: string };
  annotations: Record<string, unknown>[];
  /** Number of PATCH requests received. */
  updates: number;
}

/** A pull request (subset of the REST shape that toolgate reads). */
export interface FakePull {
  number: number;
  author: string;
  headSha: string;
  baseSha: string;
  headRepo: string | null;
  baseRepo: string;
}

const GITHUB_BOT = { login: 'github-actions[bot]', id: 41898282, type: 'Bot' };

/** The fake server. Create with {@link FakeGitHub.start}; always {@link FakeGitHub.close}. */
export class FakeGitHub {
  readonly requests: RecordedRequest[] = [];
  readonly reviews = new Map<number, FakeReview[]>();
  readonly comments = new Map<number, FakeComment[]>();
  readonly checkRuns = new Map<number, FakeCheckRun>();
  readonly pulls = new Map<number, FakePull>();
  /** Team members by `org/slug` (lower case). */
  readonly teams = new Map<string, string[]>();
  /** Commits of each pull request as `pulls/{n}/commits` lists them: author and committer logins, parent count. */
  readonly prCommits = new Map<number, { author: string | null; committer: string | null; parents?: number }[]>();
  /** Repository role by login (lower case): `admin`, `maintain`, `write`, `triage`, `read` or a custom role name. */
  readonly roles = new Map<string, { role: string; base?: string }>();
  /**
   * The git repository whose files the contents endpoint serves (`git show REF:PATH`); unset: the
   * endpoint answers 403, as for a token without `contents: read`.
   */
  repoDir?: string;
  /** Login used for comments created through the API. */
  actor = GITHUB_BOT;
  private readonly scripted: ScriptedFailure[] = [];
  private nextId = 1000;

  private constructor(
    private readonly server: Server,
    /** Base URL, e.g. `http://127.0.0.1:41234`: use as the client's `baseUrl`. */
    readonly url: string,
  ) {}

  /** Starts a server on 127.0.0.1 with a random port. */
  static async start(): Promise<FakeGitHub> {
    const ref: { fake?: FakeGitHub } = {};
    const server = createServer((req, res) => {
      void ref.fake!.handle(req, res);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    ref.fake = new FakeGitHub(server, `http://127.0.0.1:${port}`);
    return ref.fake;
  }

  /** Stops the server (and drops keep-alive connections). */
  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Scripts a failure for matching requests (consumed in the order added). */
  fail(failure: ScriptedFailure): void {
    this.scripted.push({ times: 1, ...failure });
  }

  /** Adds a review in REST shape; `submitted_at` defaults to a time that increases per review. */
  addReview(
    pr: number,
    r: { user: string | null; state: string; commit_id: string | null; submitted_at?: string; body?: string; author_association?: string },
  ): FakeReview {
    const id = this.nextId++;
    const review: FakeReview = {
      id,
      node_id: `PRR_kwDO${id}`,
      user: r.user === null ? null : { login: r.user, id: id + 1_000_000, type: 'User' },
      body: r.body ?? '',
      state: r.state,
      html_url: `https://github.com/o/r/pull/${pr}#pullrequestreview-${id}`,
      pull_request_url: `https://api.github.com/repos/o/r/pulls/${pr}`,
      commit_id: r.commit_id,
      ...(r.state === 'PENDING' ? {} : { submitted_at: r.submitted_at ?? new Date(Date.UTC(2026, 0, 1, 0, 0, id - 1000)).toISOString().replace('.000', '') }),
      author_association: r.author_association ?? 'COLLABORATOR',
    };
    const list = this.reviews.get(pr) ?? [];
    list.push(review);
    this.reviews.set(pr, list);
    return review;
  }

  /** Adds a comment by `login` (default some human). */
  addComment(issue: number, body: string, login = 'octocat', type = 'User'): FakeComment {
    return this.storeComment(issue, body, { login, id: 1, type });
  }

  /** Adds a team of the organization with these member logins. */
  addTeam(org: string, slug: string, logins: string[]): void {
    this.teams.set(`${org}/${slug}`.toLowerCase(), logins);
  }

  /**
   * Gives `login` a repository role. `base` is what the endpoint's `permission` field says for a
   * custom role (its base role); for the built-in roles it follows GitHub (`maintain` → `write`,
   * `triage` → `read`).
   */
  grant(login: string, role: string, base?: string): void {
    this.roles.set(login.toLowerCase(), { role, ...(base ? { base } : {}) });
  }

  /** A file at a commit of {@link repoDir} (GitHub's copy: nothing planted in a workspace's refs/replace applies): its text, `undefined` when absent, `null` when the commit is unknown. */
  private fileAt(ref: string, path: string): string | undefined | null {
    const git = (...args: string[]) =>
      spawnSync('git', args, {
        cwd: this.repoDir,
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', HOME: this.repoDir ?? '', GIT_NO_REPLACE_OBJECTS: '1' },
      });
    if (!/^[0-9a-f]{4,64}$/i.test(ref) || git('cat-file', '-e', `${ref}^{commit}`).status !== 0) return null;
    const r = git('show', `${ref}:${path}`);
    return r.status === 0 ? r.stdout : undefined;
  }

  /** Adds a pull request. */
  addPull(p: FakePull): void {
    this.pulls.set(p.number, p);
  }

  /** Requests matching a method and a path pattern. */
  requestsTo(method: string, path: RegExp): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && path.test(r.path));
  }

  private storeComment(issue: number, body: string, user: { login: string; id: number; type: string }): FakeComment {
    const id = this.nextId++;
    const now = new Date(Date.UTC(2026, 0, 1, 0, 0, 0) + id * 1000).toISOString().replace('.000', '');
    const c: FakeComment = {
      id,
      node_id: `IC_kwDO${id}`,
      url: `${this.url}/repos/o/r/issues/comments/${id}`,
      html_url: `https://github.com/o/r/pull/${issue}#issuecomment-${id}`,
      issue_url: `${this.url}/repos/o/r/issues/${issue}`,
      body,
      user,
      created_at: now,
      updated_at: now,
      author_association: user.type === 'Bot' ? 'NONE' : 'MEMBER',
    };
    const list = this.comments.get(issue) ?? [];
    list.push(c);
    this.comments.set(issue, list);
    return c;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      return send(res, 400, { message: 'Problems parsing JSON' });
    }
    const method = (req.method ?? 'GET').toUpperCase();
    this.requests.push({ method, path: url.pathname, query: Object.fromEntries(url.searchParams), body, headers: req.headers });

    const scripted = this.scripted.findIndex(
      (f) =>
        (f.method === undefined || f.method.toUpperCase() === method) &&
        (typeof f.path === 'string' ? url.pathname.includes(f.path) : f.path.test(url.pathname)),
    );
    if (scripted >= 0) {
      const f = this.scripted[scripted]!;
      f.times = (f.times ?? 1) - 1;
      if (f.times <= 0) this.scripted.splice(scripted, 1);
      if (f.hang) return;
      return send(res, f.status, f.body ?? { message: 'scripted failure' }, f.headers);
    }

    if (!/^(token|bearer) \S+/i.test(req.headers.authorization ?? '')) {
      return send(res, 401, { message: 'Requires authentication', documentation_url: 'https://docs.github.com/rest' });
    }

    const m = (re: RegExp): RegExpExecArray | null => re.exec(url.pathname);
    let r: RegExpExecArray | null;
    if (method === 'GET' && (r = m(/^\/repos\/[^/]+\/[^/]+\/pulls\/(\d+)\/commits$/))) {
      const list = (this.prCommits.get(Number(r[1])) ?? []).map((c, i) => ({
        sha: i.toString(16).padStart(40, '0'),
        author: c.author === null ? null : { login: c.author, id: 1, type: 'User' },
        committer: c.committer === null ? null : { login: c.committer, id: 2, type: 'User' },
        parents: Array.from({ length: c.parents ?? 1 }, (_, j) => ({ sha: j.toString(16).padStart(40, 'f') })),
        commit: { message: `commit ${i}` },
      }));
      return this.paginate(res, url, list);
    }
    if (method === 'GET' && (r = m(/^\/repos\/[^/]+\/[^/]+\/pulls\/(\d+)\/reviews$/))) {
      return this.paginate(res, url, this.reviews.get(Number(r[1])) ?? []);
    }
    if (method === 'GET' && (r = m(/^\/repos\/[^/]+\/[^/]+\/collaborators\/([^/]+)\/permission$/))) {
      const login = decodeURIComponent(r[1] as string);
      const granted = this.roles.get(login.toLowerCase()) ?? { role: 'read' };
      const legacy: Record<string, string> = { admin: 'admin', maintain: 'write', write: 'write', triage: 'read', read: 'read' };
      const permission = granted.base ?? legacy[granted.role] ?? 'none';
      return send(res, 200, { permission, role_name: granted.role, user: { login, id: 7, type: 'User' } });
    }
    if (method === 'GET' && (r = m(/^\/repos\/[^/]+\/[^/]+\/contents\/(.+)$/))) {
      if (!this.repoDir) return send(res, 403, { message: 'Resource not accessible by integration', status: '403' });
      const ref = url.searchParams.get('ref') ?? '';
      const text = this.fileAt(ref, decodeURIComponent(r[1] as string));
      if (text === null) return send(res, 404, { message: `No commit found for the ref ${ref}`, status: '404' });
      if (text === undefined) return notFound(res);
      res.writeHead(200, { 'content-type': 'application/vnd.github.raw; charset=utf-8', 'content-length': Buffer.byteLength(text) });
      return void res.end(text);
    }
    if (method === 'GET' && (r = m(/^\/orgs\/([^/]+)\/teams\/([^/]+)\/members$/))) {
      const members = this.teams.get(`${r[1]}/${r[2]}`.toLowerCase());
      if (!members) return notFound(res);
      return this.paginate(
        res,
        url,
        members.map((login, i) => ({ login, id: 2_000_000 + i, type: 'User', site_admin: false })),
      );
    }
    if (method === 'GET' && (r = m(/^\/repos\/[^/]+\/[^/]+\/pulls\/(\d+)$/))) {
      const p = this.pulls.get(Number(r[1]));
      if (!p) return notFound(res);
      return send(res, 200, pullJson(p));
    }
    if (method === 'GET' && (r = m(/^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)\/comments$/))) {
      return this.paginate(res, url, this.comments.get(Number(r[1])) ?? []);
    }
    if (method === 'POST' && (r = m(/^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)\/comments$/))) {
      const text = (body as { body?: unknown } | undefined)?.body;
      if (typeof text !== 'string') return invalid(res, 'IssueComment', 'body', 'missing_field');
      if (text.length > 65_536) return invalid(res, 'IssueComment', 'data', 'Body is too long (maximum is 65536 characters)');
      return send(res, 201, this.storeComment(Number(r[1]), text, this.actor));
    }
    if (method === 'PATCH' && (r = m(/^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/))) {
      const id = Number(r[1]);
      const c = [...this.comments.values()].flat().find((x) => x.id === id);
      if (!c) return notFound(res);
      const text = (body as { body?: unknown } | undefined)?.body;
      if (typeof text !== 'string') return invalid(res, 'IssueComment', 'body', 'missing_field');
      if (text.length > 65_536) return invalid(res, 'IssueComment', 'data', 'Body is too long (maximum is 65536 characters)');
      c.body = text;
      c.updated_at = new Date().toISOString();
      return send(res, 200, c);
    }
    if (method === 'POST' && m(/^\/repos\/[^/]+\/[^/]+\/check-runs$/)) {
      const b = (body ?? {}) as Record<string, unknown>;
      if (typeof b['name'] !== 'string' || typeof b['head_sha'] !== 'string') {
        return invalid(res, 'CheckRun', 'name', 'missing_field');
      }
      const problem = checkOutput(b['output']);
      if (problem) return invalid(res, 'CheckRun', 'output', problem);
      const out = (b['output'] ?? {}) as Record<string, unknown>;
      const id = this.nextId++;
      const run: FakeCheckRun = {
        id,
        name: b['name'],
        head_sha: b['head_sha'],
        status: typeof b['conclusion'] === 'string' ? 'completed' : String(b['status'] ?? 'queued'),
        conclusion: typeof b['conclusion'] === 'string' ? b['conclusion'] : null,
        output: { title: out['title'] as string, summary: out['summary'] as string, text: out['text'] as string },
        annotations: [...((out['annotations'] as Record<string, unknown>[] | undefined) ?? [])],
        updates: 0,
      };
      this.checkRuns.set(id, run);
      return send(res, 201, checkRunJson(run, this.url));
    }
    if (method === 'PATCH' && (r = m(/^\/repos\/[^/]+\/[^/]+\/check-runs\/(\d+)$/))) {
      const run = this.checkRuns.get(Number(r[1]));
      if (!run) return notFound(res);
      const b = (body ?? {}) as Record<string, unknown>;
      const problem = checkOutput(b['output'], true);
      if (problem) return invalid(res, 'CheckRun', 'output', problem);
      const out = (b['output'] ?? {}) as Record<string, unknown>;
      run.annotations.push(...((out['annotations'] as Record<string, unknown>[] | undefined) ?? []));
      if (typeof out['title'] === 'string') run.output.title = out['title'];
      if (typeof out['summary'] === 'string') run.output.summary = out['summary'];
      if (typeof b['conclusion'] === 'string') {
        run.conclusion = b['conclusion'];
        run.status = 'completed';
      }
      run.updates++;
      return send(res, 200, checkRunJson(run, this.url));
    }
    return notFound(res);
  }

  /** GitHub-style page/per_page pagination with a Link header (first/prev/next/last). */
  private paginate(res: ServerResponse, url: URL, items: readonly unknown[]): void {
    const perPage = Math.min(100, Math.max(1, Number(url.searchParams.get('per_page') ?? 30) || 30));
    const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
    const last = Math.max(1, Math.ceil(items.length / perPage));
    const link = (p: number, rel: string): string => {
      const u = new URL(url.toString());
      u.searchParams.set('per_page', String(perPage));
      u.searchParams.set('page', String(p));
      return `<${u.toString()}>; rel="${rel}"`;
    };
    const links: string[] = [];
    if (page > 1) links.push(link(page - 1, 'prev'));
    if (page < last) links.push(link(page + 1, 'next'), link(last, 'last'));
    if (page > 1) links.push(link(1, 'first'));
    const headers: Record<string, string> = links.length ? { link: links.join(', ') } : {};
    send(res, 200, items.slice((page - 1) * perPage, page * perPage), headers);
  }
}

function checkOutput(output: unknown, update = false): string | undefined {
  if (output === undefined) return undefined;
  const o = output as Record<string, unknown>;
  if (update ? typeof o['summary'] !== 'string' : typeof o['title'] !== 'string' || typeof o['summary'] !== 'string') {
    return 'output requires title and summary';
  }
  if (typeof o['summary'] === 'string' && o['summary'].length > 65_535) return 'summary is too long (maximum is 65535 characters)';
  if (typeof o['text'] === 'string' && o['text'].length > 65_535) return 'text is too long (maximum is 65535 characters)';
  const anns = o['annotations'];
  if (anns !== undefined) {
    if (!Array.isArray(anns)) return 'annotations must be an array';
    if (anns.length > 50) return 'Only 50 annotations are allowed per request';
    for (const a of anns as Record<string, unknown>[]) {
      for (const k of ['path', 'start_line', 'end_line', 'annotation_level', 'message']) {
        if (a[k] === undefined) return `annotation is missing ${k}`;
      }
      if (!['notice', 'warning', 'failure'].includes(String(a['annotation_level']))) return 'invalid annotation_level';
      if (typeof a['title'] === 'string' && a['title'].length > 255) return 'annotation title is too long';
    }
  }
  return undefined;
}

function pullJson(p: FakePull): Record<string, unknown> {
  const repoJson = (fullName: string): Record<string, unknown> => ({
    id: 1,
    name: fullName.split('/')[1],
    full_name: fullName,
    owner: { login: fullName.split('/')[0], id: 2, type: 'Organization' },
    fork: false,
  });
  return {
    id: 1,
    number: p.number,
    state: 'open',
    title: 'Change tools',
    user: { login: p.author, id: 3, type: 'User' },
    head: { label: 'x:branch', ref: 'branch', sha: p.headSha, repo: p.headRepo === null ? null : repoJson(p.headRepo) },
    base: { label: 'o:main', ref: 'main', sha: p.baseSha, repo: repoJson(p.baseRepo) },
  };
}

function checkRunJson(run: FakeCheckRun, base: string): Record<string, unknown> {
  return {
    id: run.id,
    node_id: `CR_kwDO${run.id}`,
    head_sha: run.head_sha,
    external_id: '',
    url: `${base}/repos/o/r/check-runs/${run.id}`,
    html_url: `https://github.com/o/r/runs/${run.id}`,
    status: run.status,
    conclusion: run.conclusion,
    name: run.name,
    output: { ...run.output, annotations_count: run.annotations.length, annotations_url: `${base}/repos/o/r/check-runs/${run.id}/annotations` },
  };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'x-github-request-id': 'FAKE:0001',
    ...headers,
  });
  res.end(text);
}

function notFound(res: ServerResponse): void {
  send(res, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' });
}

function invalid(res: ServerResponse, resource: string, field: string, message: string): void {
  send(res, 422, {
    message: 'Validation Failed',
    errors: [{ resource, code: 'custom', field, message }],
    documentation_url: 'https://docs.github.com/rest',
    status: '422',
  });
}

/** The repository the GitHub tests work on. */
export const TEST_REPO = { owner: 'acme', repo: 'widgets-mcp' };

/**
 * Gives each test of the calling file its own fake (started before it, closed after it) and a
 * client aimed at it that retries without sleeping.
 */
export function useFakeGitHub(): { readonly gh: FakeGitHub; octokit(): ReturnType<typeof createGitHubClient> } {
  let gh: FakeGitHub | undefined;
  beforeEach(async () => {
    gh = await FakeGitHub.start();
  });
  afterEach(async () => {
    await gh?.close();
    gh = undefined;
  });
  const current = (): FakeGitHub => {
    if (!gh) throw new Error('the fake GitHub API runs only inside a test');
    return gh;
  };
  return {
    get gh() {
      return current();
    },
    octokit: () => createGitHubClient({ token: 't', baseUrl: current().url, sleep: async () => {} }),
  };
}
