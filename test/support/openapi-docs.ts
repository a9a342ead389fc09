/**
 * Rule cases on real OpenAPI documents: a document as published (test/fixtures/openapi/, see its
 * README), and the same document edited the way a pull request would edit it, each snapshotted
 * through the real `openapi` source in a repository of its own and judged as a change review.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { snapshotOpenApi } from '../../src/sources/openapi/index.js';
import { normalizeSnapshot } from '../../src/surface/normalize.js';
import type { Surface } from '../../src/surface/model.js';
import type { Approval } from '../../src/rules/context.js';
import { evaluateCase, type Expected, type RunCase } from './surface-builders.js';

const FIXTURES = resolve('test/fixtures/openapi');

/** A fixture document's text, e.g. `petstore3/openapi.yaml`. */
export function fixtureText(path: string): string {
  return readFileSync(join(FIXTURES, path), 'utf8');
}

/** Replaces `from` by `to` in `text`; fails when `from` is not there (the fixture changed). */
export function edit(text: string, from: string | RegExp, to: string): string {
  const out = text.replace(from, to);
  if (out === text) throw new Error(`edit: ${String(from)} not found`);
  return out;
}

/**
 * The surface of `files` (path → text; `spec` is the document) with the operations `include`
 * names, as `toolgate update` would pin it (source id `src`).
 */
export async function documentSurface(files: Record<string, string>, spec: string, include: string[], policies: Record<string, 'read'> = {}): Promise<Surface> {
  const repo = mkdtempSync(join(tmpdir(), 'tg-openapi-doc-'));
  try {
    mkdirSync(join(repo, '.git'));
    for (const [p, text] of Object.entries(files)) {
      mkdirSync(dirname(join(repo, p)), { recursive: true });
      writeFileSync(join(repo, p), text);
    }
    writeFileSync(join(repo, 'integration.json'), JSON.stringify({ type: 'openapi', spec, include, policies }));
    const raw = await snapshotOpenApi(join(repo, 'integration.json'), { idOverride: 'src' });
    const { surface, malformed } = normalizeSnapshot(raw);
    if (malformed.length) throw new Error(`malformed tool: ${malformed[0]!.problem}`);
    return surface;
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
}

/** One document-edit case: the change review of `base` → `head` (each path → text). */
export function documentCase(c: {
  name: string;
  spec: string;
  base: Record<string, string>;
  head: Record<string, string>;
  include: string[];
  policies?: Record<string, 'read'>;
  approval?: Approval;
  watch?: string[];
  expect: Expected[];
}): RunCase {
  return {
    name: c.name,
    ...(c.watch ? { watch: c.watch } : {}),
    expect: c.expect,
    timeout: 60_000,
    run: async () => {
      const base = await documentSurface(c.base, c.spec, c.include, c.policies);
      const head = await documentSurface(c.head, c.spec, c.include, c.policies);
      return evaluateCase({ base, head, ...(c.approval ? { approval: c.approval } : {}) });
    },
  };
}
