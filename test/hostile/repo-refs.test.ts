/**
 * OpenAPI documents read nothing outside the repository.
 *
 * A pull request controls the integration config and the document: a `$ref` to `/etc/passwd`,
 * `file:///proc/self/environ`, `../outside.yaml`, or to a symbolic link in the repository that
 * points out of it must be refused before the file is opened, so that nothing of it can reach the
 * contract, the report or a PR comment. So must a `spec` outside the repository, a FIFO (opening
 * one blocks), `/dev/zero` (reading it never ends), a socket, a directory, an oversized file and a
 * YAML alias bomb. Each refusal is a ConfigError naming the file and the `$ref`, arrives within a
 * few seconds, and carries no byte of the refused file (SECRET-MARKER-123 is in the outside file).
 *
 * Every case is a real file tree in a temporary directory (fixtures: test/fixtures/hostile-repo/):
 * real symbolic links, a real FIFO (`mkfifo`), a real Unix socket, a sparse 65 MiB file.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadIntegrationConfig } from '../../src/sources/openapi/config.js';
import { loadOpenApiDocument } from '../../src/sources/openapi/document.js';
import { snapshotOpenApi } from '../../src/sources/openapi/index.js';
import { fetchCapped, RemoteError } from '../../src/sources/openapi/remote.js';
import { expandedSize } from '../../src/sources/openapi/expanded-size.js';
import { MAX_FILE_BYTES } from '../../src/sources/openapi/repo-files.js';
import { findRepositoryRoot } from '../../src/util/repository-root.js';
import { ConfigError } from '../../src/util/errors.js';
import { SourceError } from '../../src/sources/source-error.js';

const FIXTURES = resolve('test/fixtures/hostile-repo');
const SECRET = 'SECRET-MARKER-123';
const TEMPLATE = readFileSync(join(FIXTURES, 'api.yaml.template'), 'utf8');
/** Line of `$ref: '{{REF}}'` in the template, and its JSON pointer. */
const REF_LINE = TEMPLATE.split('\n').findIndex((l) => l.includes('{{REF}}')) + 1;
const REF_POINTER = '/paths/~1pets/get/parameters/0/schema/$ref';
const REF_INDENT = /^( *)\$ref/.exec(TEMPLATE.split('\n')[REF_LINE - 1]!)![1]!;
/** Refusals must come fast: nothing waits on a FIFO, a device or an expanding alias. */
const FAST_MS = 5_000;
const CASE_TIMEOUT = 20_000;

const tmp = mkdtempSync(join(tmpdir(), 'toolgate-repo-refs-'));
const repo = join(tmp, 'repo');
const specs = join(repo, 'specs');
const outside = join(tmp, 'outside.yaml');
const outsideDir = join(tmp, 'outside-dir');
let socketServer: NetServer;

beforeAll(async () => {
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(specs, { recursive: true });
  mkdirSync(outsideDir);
  copyFileSync(join(FIXTURES, 'outside.yaml'), outside);
  copyFileSync(join(FIXTURES, 'outside.yaml'), join(outsideDir, 'secret.yaml'));
  for (const f of ['common.yaml', 'owner.yaml', 'bomb.yaml', 'bomb-schemas.yaml', 'recursive.yaml']) copyFileSync(join(FIXTURES, f), join(specs, f));
  // Links out of the repository: absolute, relative, to a directory, to a device, a chain.
  symlinkSync(outside, join(specs, 'link-out-abs.yaml'));
  symlinkSync('../../outside.yaml', join(specs, 'link-out-rel.yaml'));
  symlinkSync(outsideDir, join(specs, 'outdir'));
  symlinkSync('/dev/zero', join(specs, 'zero.yaml'));
  symlinkSync('link-out-rel.yaml', join(specs, 'chain.yaml'));
  symlinkSync('loop-b.yaml', join(specs, 'loop-a.yaml'));
  symlinkSync('loop-a.yaml', join(specs, 'loop-b.yaml'));
  // Links that stay inside: to a file, to a directory, with `..` in the target.
  symlinkSync('common.yaml', join(specs, 'link-in.yaml'));
  mkdirSync(join(repo, 'shared'));
  copyFileSync(join(FIXTURES, 'common.yaml'), join(repo, 'shared', 'common.yaml'));
  copyFileSync(join(FIXTURES, 'owner.yaml'), join(repo, 'shared', 'owner.yaml'));
  symlinkSync('../shared', join(specs, 'shared-link'));
  // Special files inside the repository.
  execFileSync('mkfifo', [join(specs, 'pipe.yaml')]);
  mkdirSync(join(specs, 'dir.yaml'));
  socketServer = createNetServer();
  await new Promise<void>((r) => socketServer.listen(join(specs, 'sock.yaml'), r));
  // A sparse file just over the per-file cap: refused on its size, never read.
  writeFileSync(join(specs, 'huge.yaml'), '');
  truncateSync(join(specs, 'huge.yaml'), MAX_FILE_BYTES + 1024 * 1024);
  // A referenced file that refers out of the repository.
  writeFileSync(join(specs, 'nested.yaml'), "Pet:\n  type: object\n  properties:\n    leak:\n      $ref: '../../outside.yaml#/Pet'\n");
});

afterAll(async () => {
  await new Promise<void>((r) => socketServer.close(() => r()));
  rmSync(tmp, { recursive: true, force: true });
});

/** Every string an error carries: message, fix, location, description, stack, causes. */
function errorText(e: unknown, depth = 0): string {
  if (depth > 5 || e === null || e === undefined) return '';
  if (!(e instanceof Error)) return String(e);
  const c = e as Error & { fix?: string; location?: unknown; describe?: () => string };
  return [
    c.message,
    c.stack,
    c.fix,
    JSON.stringify(c.location ?? null),
    typeof c.describe === 'function' ? c.describe() : '',
    String(e),
    errorText(c.cause, depth + 1),
  ].join('\n');
}

function expectNoSecret(e: unknown): void {
  const text = errorText(e);
  expect(text).not.toContain(SECRET);
  // Nor anything of /etc/passwd or the environment.
  expect(text).not.toMatch(/root:x?:0:0|PATH=\//);
}

let n = 0;
/** A spec in specs/ whose one parameter schema is `$ref: <ref>` (in the tool's inputSchema), and its integration config. */
function integrationFor(ref: string): { integration: string; spec: string } {
  const name = `case-${n++}`;
  const spec = join(specs, `${name}.yaml`);
  writeFileSync(spec, TEMPLATE.replace('{{REF}}', ref));
  const integration = join(repo, `${name}.integration.json`);
  writeFileSync(integration, JSON.stringify({ id: 'pets', type: 'openapi', spec: `./specs/${name}.yaml`, include: ['listPets'] }, null, 2));
  return { integration, spec };
}

/** Snapshots through the real entry point; returns the error (and fails if there is none). */
async function attempt(integration: string): Promise<{ err: unknown; ms: number }> {
  const started = Date.now();
  const result = await snapshotOpenApi(integration).then(
    (s) => ({ ok: s }),
    (e: unknown) => ({ err: e }),
  );
  const ms = Date.now() - started;
  if ('ok' in result) {
    expect(JSON.stringify(result.ok)).not.toContain(SECRET);
    throw new Error(`expected a refusal, got a surface of ${result.ok.tools.length} tools`);
  }
  return { err: result.err, ms };
}

/** A `$ref` in the document that must be refused: ConfigError at the ref, fast, no secret. */
async function refusedRef(ref: string, reason: RegExp): Promise<ConfigError> {
  const { integration, spec } = integrationFor(ref);
  const { err, ms } = await attempt(integration);
  expectNoSecret(err);
  expect(err, errorText(err)).toBeInstanceOf(ConfigError);
  const e = err as ConfigError;
  expect(e.exitCode).toBe(2);
  expect(ms).toBeLessThan(FAST_MS);
  expect(e.message).toContain(`$ref ${JSON.stringify(ref)}`);
  expect(e.message).toContain(`${integration}:4 (spec)`);
  expect(e.message).toMatch(reason);
  expect(e.location).toEqual({ file: spec, line: REF_LINE, pointer: REF_POINTER });
  expect(e.describe()).toContain(`${spec}:${REF_LINE} (at ${REF_POINTER})`);
  expect(e.fix).toBeTruthy();
  return e;
}

const OUTSIDE = /refused: it names a path outside the repository/;
const VIA_LINK = /refused: it goes through a symbolic link that points outside the repository/;
const NOT_REGULAR = /not a regular file; toolgate reads only regular files/;

describe('local $refs outside the repository are refused before anything is opened', () => {
  it('/etc/passwd (absolute path)', { timeout: CASE_TIMEOUT }, async () => {
    await refusedRef('/etc/passwd', OUTSIDE);
  });

  it('file:///etc/passwd and file:///proc/self/environ (file: URLs)', { timeout: CASE_TIMEOUT }, async () => {
    await refusedRef('file:///etc/passwd', OUTSIDE);
    await refusedRef('file:///proc/self/environ', OUTSIDE);
  });

  it('../../outside.yaml (a real file next to the repository)', { timeout: CASE_TIMEOUT }, async () => {
    await refusedRef('../../outside.yaml#/Pet', OUTSIDE);
  });

  it('an outside file that does not exist gets the same refusal (no existence oracle)', { timeout: CASE_TIMEOUT }, async () => {
    await refusedRef('../../no-such-file.yaml', OUTSIDE);
    await refusedRef('/etc/no-such-file', OUTSIDE);
  });

  it('/dev/zero, directly and through a link', { timeout: CASE_TIMEOUT }, async () => {
    await refusedRef('/dev/zero', OUTSIDE);
    await refusedRef('./zero.yaml', VIA_LINK);
  });

  it('symbolic links inside the repository that point out: absolute, relative, a chain, a directory', { timeout: CASE_TIMEOUT }, async () => {
    await refusedRef('./link-out-abs.yaml#/Pet', VIA_LINK);
    await refusedRef('./link-out-rel.yaml#/Pet', VIA_LINK);
    await refusedRef('./chain.yaml#/Pet', VIA_LINK);
    await refusedRef('./outdir/secret.yaml#/Pet', VIA_LINK);
  });

  it('a symbolic link loop', { timeout: CASE_TIMEOUT }, async () => {
    await refusedRef('./loop-a.yaml', /more than 40 symbolic links \(a loop\)/);
  });

  it('a referenced file that refers out: located in that file', { timeout: CASE_TIMEOUT }, async () => {
    const { integration } = integrationFor('./nested.yaml#/Pet');
    const { err, ms } = await attempt(integration);
    expectNoSecret(err);
    expect(err).toBeInstanceOf(ConfigError);
    expect(ms).toBeLessThan(FAST_MS);
    const e = err as ConfigError;
    expect(e.message).toContain('$ref "../../outside.yaml#/Pet"');
    expect(e.location).toEqual({ file: join(specs, 'nested.yaml'), line: 5, pointer: '/Pet/properties/leak/$ref' });
  });

  it('a $ref resolved against a `$id` that points out of the repository (seen by the parser only)', { timeout: CASE_TIMEOUT }, async () => {
    // The pre-walk resolves `secret.yaml` next to the document (a harmless copy); the parser
    // resolves it against `$id`, into the outside directory: its file resolver refuses.
    writeFileSync(join(specs, 'secret.yaml'), 'Pet:\n  type: object\n');
    const spec = join(specs, 'with-id.yaml');
    writeFileSync(
      spec,
      TEMPLATE.replace('3.0.3', '3.1.0').replace("$ref: '{{REF}}'", `$id: '${pathToFileURL(outsideDir).href}/'\n${REF_INDENT}$ref: 'secret.yaml#/Pet'`),
    );
    const integration = join(repo, 'with-id.integration.json');
    writeFileSync(integration, JSON.stringify({ id: 'pets', type: 'openapi', spec: './specs/with-id.yaml', include: ['listPets'] }, null, 2));
    const { err, ms } = await attempt(integration);
    expectNoSecret(err);
    expect(err, errorText(err)).toBeInstanceOf(ConfigError);
    expect(ms).toBeLessThan(FAST_MS);
    expect((err as ConfigError).message).toContain('$ref "secret.yaml"');
    expect((err as ConfigError).message).toMatch(/resolved against file:\/\/.*outside-dir/);
    expect((err as ConfigError).location?.file).toBe(spec);
  });
});

describe('special and oversized files inside the repository are refused without blocking', () => {
  it('a FIFO (opening it would block until a writer comes)', { timeout: CASE_TIMEOUT }, async () => {
    await refusedRef('./pipe.yaml', /it is a FIFO \(named pipe\), not a regular file/);
  });

  it('a socket and a directory', { timeout: CASE_TIMEOUT }, async () => {
    await refusedRef('./sock.yaml', /it is a socket, not a regular file/);
    await refusedRef('./dir.yaml', /it is a directory, not a regular file/);
    await refusedRef('./dir.yaml', NOT_REGULAR);
  });

  it('a file over the 64 MiB cap (sparse: refused on its size, never read)', { timeout: CASE_TIMEOUT }, async () => {
    await refusedRef('./huge.yaml', /the file is 65 MiB, more than the 64 MiB toolgate reads per file/);
  });
});

describe('the spec path itself', () => {
  const config = (name: string, spec: string) => {
    const file = join(repo, `${name}.integration.json`);
    writeFileSync(file, JSON.stringify({ id: 'pets', type: 'openapi', spec, include: ['listPets'] }, null, 2));
    return file;
  };
  const refusedSpec = async (name: string, spec: string, reason: RegExp) => {
    const file = config(name, spec);
    const { err, ms } = await attempt(file);
    expectNoSecret(err);
    expect(err, errorText(err)).toBeInstanceOf(ConfigError);
    expect(ms).toBeLessThan(FAST_MS);
    const e = err as ConfigError;
    expect(e.message).toContain(`\`spec\` ${JSON.stringify(spec)}`);
    expect(e.message).toMatch(reason);
    expect(e.location).toEqual({ file, line: 4, pointer: '/spec' });
    expect(e.fix).toMatch(/commit the OpenAPI document to the repository/);
  };

  it('outside the repository: relative, absolute, through a link', { timeout: CASE_TIMEOUT }, async () => {
    await refusedSpec('spec-rel', '../outside.yaml', /names a path outside the repository/);
    await refusedSpec('spec-abs', outside, /names a path outside the repository/);
    await refusedSpec('spec-etc', '/etc/passwd', /names a path outside the repository/);
    await refusedSpec('spec-link', './specs/link-out-abs.yaml', /goes through a symbolic link that points outside the repository/);
  });

  it('a FIFO, a device behind a link, a directory', { timeout: CASE_TIMEOUT }, async () => {
    await refusedSpec('spec-fifo', './specs/pipe.yaml', /is a FIFO \(named pipe\), not a regular file/);
    await refusedSpec('spec-zero', './specs/zero.yaml', /symbolic link that points outside/);
    await refusedSpec('spec-dir', './specs', /is a directory, not a regular file/);
  });

  it('loadOpenApiDocument checks the document itself too (a caller that skipped the config)', { timeout: CASE_TIMEOUT }, async () => {
    const err = await loadOpenApiDocument(outside, { root: repo, context: 'x.json:4 (spec)' }).catch((e: unknown) => e);
    expectNoSecret(err);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).message).toMatch(/^x\.json:4 \(spec\): OpenAPI document .*outside\.yaml refused: it names a path outside the repository/);
    const fifo = await loadOpenApiDocument(join(specs, 'pipe.yaml'), { root: repo }).catch((e: unknown) => e);
    expect(fifo).toBeInstanceOf(ConfigError);
    expect((fifo as Error).message).toMatch(/FIFO/);
  });

  it('the integration config reports the root it checked against', async () => {
    const cfg = await loadIntegrationConfig(config('spec-ok', './specs/common.yaml'));
    expect(cfg.root).toBe(repo);
    expect(findRepositoryRoot(specs)).toBe(repo);
  });
});

describe('YAML alias bombs are refused in milliseconds, before anything walks them', () => {
  it('"billion laughs" as the document', { timeout: CASE_TIMEOUT }, async () => {
    const file = join(repo, 'bomb.integration.json');
    writeFileSync(file, JSON.stringify({ id: 'bomb', type: 'openapi', spec: './specs/bomb.yaml', include: ['listPets'] }, null, 2));
    const { err, ms } = await attempt(file);
    expect(err, errorText(err)).toBeInstanceOf(ConfigError);
    expect(ms).toBeLessThan(FAST_MS);
    const e = err as ConfigError;
    expect(e.message).toMatch(/OpenAPI document \S*specs\/bomb\.yaml refused: it expands to more than 64 MiB of values: YAML aliases/);
    expect(e.location).toEqual({ file: join(specs, 'bomb.yaml') });
    expect(e.fix).toMatch(/anchors and aliases/);
  });

  it('"billion laughs" in a referenced file, and a recursive alias', { timeout: CASE_TIMEOUT }, async () => {
    const bomb = await refusedRef('./bomb-schemas.yaml#/Pet', /the file \S*specs\/bomb-schemas\.yaml expands to more than 64 MiB/);
    expect(bomb.fix).toMatch(/anchors and aliases/);
    await refusedRef('./recursive.yaml#/Pet', /contains itself through a recursive YAML alias/);
  });

  it('expandedSize: linear in distinct nodes, exact without sharing', () => {
    expect(expandedSize({ a: 'xy', b: [1, null] })).toEqual({ size: 1 + 1 + 3 + 1 + 1 + 1 + 1 });
    const shared = ['lol'];
    expect(expandedSize({ a: shared, b: shared })).toEqual({ size: 1 + 1 + 5 + 1 + 5 });
    let level: unknown = ['lol', 'lol'];
    for (let i = 0; i < 40; i++) level = [level, level];
    const large = expandedSize(level);
    expect('kind' in large && large.kind).toBe('too-large');
    // The path names where the limit was passed: the root, then the first element at each level.
    const path = 'kind' in large && large.kind === 'too-large' ? large.path : [];
    expect(path.length).toBeGreaterThan(10);
    expect(path[0]).toEqual({ node: level });
    expect(path.slice(1).every((s) => s.key === '0' && s.viaRef === undefined)).toBe(true);
    const self: Record<string, unknown> = {};
    self.self = self;
    expect(expandedSize(self)).toEqual({ kind: 'cycle' });
    let deep: unknown = 1;
    for (let i = 0; i < 1000; i++) deep = [deep];
    expect(expandedSize(deep)).toEqual({ kind: 'too-deep' });
  });

  it('a $ref bomb (each schema referring ten times to the next) is refused before validation', { timeout: CASE_TIMEOUT }, async () => {
    const schemas: Record<string, unknown> = { a0: { type: 'string' } };
    for (let i = 1; i <= 10; i++) {
      schemas[`a${i}`] = {
        type: 'object',
        properties: Object.fromEntries(Array.from({ length: 10 }, (_, j) => [`p${j}`, { $ref: `#/components/schemas/a${i - 1}` }])),
      };
    }
    const spec = join(specs, 'ref-bomb.json');
    writeFileSync(
      spec,
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'ref bomb', version: '1' },
        paths: {
          '/pets': {
            get: {
              operationId: 'listPets',
              responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/a10' } } } } },
            },
          },
        },
        components: { schemas },
      }),
    );
    const file = join(repo, 'ref-bomb.integration.json');
    writeFileSync(file, JSON.stringify({ id: 'rb', type: 'openapi', spec: './specs/ref-bomb.json', include: ['listPets'] }, null, 2));
    const { err, ms } = await attempt(file);
    expect(err, errorText(err)).toBeInstanceOf(ConfigError);
    expect(ms).toBeLessThan(FAST_MS);
    expect((err as Error).message).toMatch(/expand to more than 64 MiB once their \$refs are resolved/);
    expect((err as Error).message).toContain('the $ref at #/paths/~1pets/get/responses/200/content/application~1json/schema, to #/components/schemas/a10,');
    expect((err as ConfigError).location).toEqual({ file: spec, pointer: '/paths/~1pets/get/responses/200/content/application~1json/schema' });
  });
});

describe('bounded in time', () => {
  it('a load past its deadline fails with a located error', async () => {
    const { spec } = integrationFor('./common.yaml#/Pet');
    const err = await loadOpenApiDocument(spec, { root: repo, context: 'i.json:4 (spec)', timeoutMs: -1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceError);
    expect((err as SourceError).reason).toBe('load-failed');
    expect((err as Error).message).toMatch(/^i\.json:4 \(spec\): reading .* took longer than toolgate's limit/);
  });
});

describe('references inside the repository still work', () => {
  const names = (s: Awaited<ReturnType<typeof snapshotOpenApi>>) => s.tools.map((t) => (t.tool as { name: string }).name);
  const schemaText = (s: Awaited<ReturnType<typeof snapshotOpenApi>>) => JSON.stringify(s.tools[0]?.tool);

  it('a relative ref to a sibling (which refers to another sibling)', { timeout: CASE_TIMEOUT }, async () => {
    const { integration } = integrationFor('./common.yaml#/Pet');
    const s = await snapshotOpenApi(integration);
    expect(names(s)).toEqual(['listPets']);
    expect(s.tools[0]!.safetyClass).toBe('read');
    expect(JSON.stringify(s)).not.toContain(SECRET);
  });

  it(
    'a symbolic link to a file inside, a linked directory whose target has `..`, a file: URL inside, an absolute path inside',
    { timeout: CASE_TIMEOUT },
    async () => {
      for (const ref of [
        './link-in.yaml#/Pet',
        './shared-link/common.yaml#/Pet',
        `${pathToFileURL(join(specs, 'common.yaml')).href}#/Pet`,
        `${join(repo, 'shared', 'common.yaml')}#/Pet`,
      ]) {
        const { integration } = integrationFor(ref);
        const s = await snapshotOpenApi(integration);
        expect(names(s), ref).toEqual(['listPets']);
        expect(JSON.stringify(s)).not.toContain(SECRET);
      }
    },
  );

  it('a repository root reached through a symbolic link', { timeout: CASE_TIMEOUT }, async () => {
    const alias = join(tmp, 'repo-alias');
    symlinkSync(repo, alias);
    const { spec } = integrationFor('../shared/common.yaml#/Pet');
    const viaAlias = join(alias, 'specs', spec.slice(specs.length + 1));
    const loaded = await loadOpenApiDocument(viaAlias, { root: alias });
    expect(JSON.stringify(loaded.doc)).toContain("The owner's login (owner.yaml)");
  });

  it('an explicit root narrower than the checkout is enforced', { timeout: CASE_TIMEOUT }, async () => {
    const { spec } = integrationFor('../shared/common.yaml#/Pet');
    await expect(loadOpenApiDocument(spec, { root: repo })).resolves.toBeTruthy();
    const err = await loadOpenApiDocument(spec, { root: specs }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(/names a path outside the repository/);
  });

  it('the tool schema carries what the referenced files say (so a leak would show there)', { timeout: CASE_TIMEOUT }, async () => {
    for (const ref of ['./common.yaml#/Pet', './link-in.yaml#/Pet', './shared-link/common.yaml#/Pet']) {
      const { integration } = integrationFor(ref);
      const text = schemaText(await snapshotOpenApi(integration));
      expect(text, ref).toContain("The pet's name (common.yaml)");
      expect(text, ref).toContain("The owner's login (owner.yaml)");
    }
  });
});

describe('remote $refs (allow-remote-refs): private addresses refused, size and time capped', () => {
  let server: HttpServer;
  let port = 0;
  let connections = 0;
  beforeAll(async () => {
    server = createHttpServer((req, res) => {
      if (req.url === '/pet.json') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ Pet: { type: 'object', properties: { name: { type: 'string' } } } }));
      } else if (req.url === '/endless') {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        const pump = () => {
          while (res.write(chunk));
        };
        res.on('drain', pump);
        res.on('close', () => res.off('drain', pump));
        pump();
      } else if (req.url === '/declared-huge') {
        res.writeHead(200, { 'content-length': String(1024 * 1024 * 1024) });
        res.write('{');
      } else if (req.url === '/bomb.yaml') {
        res.writeHead(200, { 'content-type': 'application/yaml' }).end(readFileSync(join(FIXTURES, 'bomb-schemas.yaml')));
      } else if (req.url === '/loop') {
        res.writeHead(302, { location: '/loop' }).end();
      } else if (req.url === '/silent') {
        // Never answers.
      } else {
        res.writeHead(404).end();
      }
    });
    server.on('connection', () => connections++);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((r) => server.close(() => r()));
  });

  const remoteSpec = (url: string) => {
    const { spec } = integrationFor(url);
    return spec;
  };

  it('a loopback address is refused without a connection (as the parser did)', { timeout: CASE_TIMEOUT }, async () => {
    const before = connections;
    const url = `http://127.0.0.1:${port}/pet.json#/Pet`;
    const err = await loadOpenApiDocument(remoteSpec(url), { root: repo, allowRemoteRefs: true }).catch((e: unknown) => e);
    expect(err, errorText(err)).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toContain(`$ref ${JSON.stringify(`http://127.0.0.1:${port}/pet.json`)}`);
    expect((err as Error).message).toMatch(/resolves to 127\.0\.0\.1, a loopback, private, link-local or reserved address/);
    expect(connections - before).toBe(0);
    for (const host of ['localhost', '169.254.169.254', '[::1]', '[::ffff:127.0.0.1]', '10.1.2.3', 'metadata.internal']) {
      await expect(fetchCapped(`http://${host}/x`, { maxBytes: 10, timeoutMs: 2_000 })).rejects.toMatchObject({ kind: 'unsafe' });
    }
  });

  it('a remote document works within the caps (test hook for a local server)', { timeout: CASE_TIMEOUT }, async () => {
    const loaded = await loadOpenApiDocument(remoteSpec(`http://127.0.0.1:${port}/pet.json#/Pet`), {
      root: repo,
      allowRemoteRefs: true,
      allowPrivateAddresses: true,
    });
    expect(JSON.stringify(loaded.doc)).toContain('"name":{"type":"string"}');
  });

  it('an endless body stops at the size cap; a declared huge body is refused before reading', { timeout: CASE_TIMEOUT }, async () => {
    const started = Date.now();
    const endless = await fetchCapped(`http://127.0.0.1:${port}/endless`, { maxBytes: 1024 * 1024, timeoutMs: 10_000, allowPrivateAddresses: true }).catch(
      (e: unknown) => e,
    );
    expect(endless).toBeInstanceOf(RemoteError);
    expect(endless).toMatchObject({ kind: 'too-large' });
    const declared = await fetchCapped(`http://127.0.0.1:${port}/declared-huge`, {
      maxBytes: 1024 * 1024,
      timeoutMs: 10_000,
      allowPrivateAddresses: true,
    }).catch((e: unknown) => e);
    expect(declared).toMatchObject({ kind: 'too-large' });
    expect(Date.now() - started).toBeLessThan(FAST_MS);
  });

  it('a server that never answers times out (AbortSignal)', { timeout: CASE_TIMEOUT }, async () => {
    const started = Date.now();
    const err = await fetchCapped(`http://127.0.0.1:${port}/silent`, { maxBytes: 1024, timeoutMs: 500, allowPrivateAddresses: true }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'timeout' });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('a redirect loop stops after 5 hops', { timeout: CASE_TIMEOUT }, async () => {
    const err = await fetchCapped(`http://127.0.0.1:${port}/loop`, { maxBytes: 1024, timeoutMs: 5_000, allowPrivateAddresses: true }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'http', message: 'more than 5 redirects' });
  });

  it('a remote alias bomb is refused like a local one', { timeout: CASE_TIMEOUT }, async () => {
    const url = `http://127.0.0.1:${port}/bomb.yaml#/Pet`;
    const err = await loadOpenApiDocument(remoteSpec(url), { root: repo, allowRemoteRefs: true, allowPrivateAddresses: true }).catch((e: unknown) => e);
    expect(err, errorText(err)).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(/expands to more than 64 MiB/);
  });
});
