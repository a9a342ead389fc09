/**
 * Contracts the export tests start from, built from real input as `toolgate update` builds them:
 * the recorded `tools/list` of @modelcontextprotocol/server-filesystem 2026.8.31
 * (test/fixtures/exports/README.md) and GitHub's REST description through the 12-operation
 * integration of test/fixtures/openapi/github.
 */
import { resolve } from 'node:path';
import type { Policy } from '../../src/config/policy-model.js';
import { parsePolicy } from '../../src/config/policy.js';
import { exportInput } from '../../src/export/files.js';
import type { ExportInput } from '../../src/export/model.js';
import { snapshotOpenApi } from '../../src/sources/openapi/index.js';
import { readRecorded } from '../../src/sources/recorded.js';
import type { Surface } from '../../src/surface/model.js';
import { normalizeSnapshot } from '../../src/surface/normalize.js';

export const FILESYSTEM_LISTING = resolve('test/fixtures/exports/server-filesystem/2026.8.31.json');
export const GITHUB_INTEGRATION = resolve('test/fixtures/openapi/github/integration.json');

let filesystem: Promise<Surface> | undefined;
let github: Promise<Surface> | undefined;

/** The contract of the recorded filesystem server (built once per test file). */
export function filesystemContract(): Promise<Surface> {
  filesystem ??= readRecorded('filesystem', FILESYSTEM_LISTING).then((raw) => normalizeSnapshot(raw).surface);
  return filesystem;
}

/** The contract of the GitHub REST integration (8 read operations, 1 of them promoted; 3 disabled), built once per test file. */
export function githubContract(): Promise<Surface> {
  github ??= snapshotOpenApi(GITHUB_INTEGRATION).then((raw) => normalizeSnapshot(raw).surface);
  return github;
}

/** A policy from YAML text, for its runtime block and sources (files are not read). */
export function policyOf(yaml: string): Policy {
  return parsePolicy(yaml, 'toolgate.yml', resolve('.'));
}

/** The input of an export of `contract` under `policy` (source id and server name from it). */
export function inputOf(policy: Policy, contract: Surface, over: { server?: string; gateway?: string } = {}): ExportInput {
  const id = contract.source.id;
  return exportInput(
    policy,
    contract,
    { source: id, server: over.server ?? id, ...(over.gateway ? { gateway: over.gateway } : {}) },
    `.toolgate/${id}.surface.json`,
  );
}

/** The two golden cases: each a contract and the toolgate.yml whose runtime block exports it. */
export const CASES = {
  'server-filesystem': {
    contract: filesystemContract,
    // A write tool refused by name, so every target shows a refused tool (deny lists, notes).
    policy: `sources:\n  - id: filesystem\n    mcp:\n      command: npx\n      args: ["-y", "@modelcontextprotocol/server-filesystem@2026.8.31", "/srv/data"]\nruntime:\n  deny: [move_file]\n`,
  },
  'openapi-github': {
    contract: githubContract,
    policy: `sources:\n  - id: github\n    openapi: integrations/github.json\n`,
  },
} as const;
