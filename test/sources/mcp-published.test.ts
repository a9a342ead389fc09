/**
 * The three published reference servers (devDependencies, pinned 2026.8.31), started from
 * node_modules. Counts were checked by hand against each server's source (tools/index.js etc.).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { snapshotMcp } from '../../src/sources/mcp.js';
import type { RawSnapshot } from '../../src/sources/types.js';
import { COMMON, NODE, ROOT, tempDir } from '../support/mcp-fixtures.js';

const pkg = (name: string) => join(ROOT, 'node_modules/@modelcontextprotocol', name, 'dist/index.js');
const LIMITS = { ...COMMON, timeouts: { startupMs: 30_000, requestMs: 15_000, totalMs: 45_000 } };
const names = (s: RawSnapshot) => s.tools.map((t) => (t.tool as { name: string }).name);
const readOnly = (s: RawSnapshot) => s.tools.filter((t) => (t.tool as { annotations?: { readOnlyHint?: boolean } }).annotations?.readOnlyHint === true).length;

/** Capabilities that unlock every conditional tool of server-everything. */
const FULL_CAPS = {
  roots: { listChanged: true },
  sampling: {},
  elicitation: { form: {}, url: {} },
  tasks: { requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } },
};

const BASE_EVERYTHING = [
  'echo',
  'get-annotated-message',
  'get-env',
  'get-resource-links',
  'get-resource-reference',
  'get-structured-content',
  'get-sum',
  'get-tiny-image',
  'gzip-file-as-resource',
  'toggle-simulated-logging',
  'toggle-subscriber-updates',
  'trigger-long-running-operation',
  'simulate-research-query',
];

describe('published servers', () => {
  it('server-everything lists 13 tools to a client with no capabilities', async () => {
    const snap = await snapshotMcp('everything', {
      transport: 'stdio',
      command: NODE,
      args: [pkg('server-everything'), 'stdio'],
      cwd: ROOT,
      env: [],
      ...LIMITS,
    });
    // Its instructions (initialize) are pinned with the server: text clients give the model.
    expect(snap.server).toEqual({
      name: 'mcp-servers/everything',
      version: '2.0.0',
      protocolVersion: '2025-11-25',
      instructions: expect.stringMatching(/^# Everything Server – Server Instructions\n/),
    });
    expect(snap.server?.instructions?.length).toBeGreaterThan(1000);
    expect(names(snap)).toEqual(BASE_EVERYTHING);
    expect(readOnly(snap)).toBe(9);
  });

  it('server-everything lists 19 tools when roots, sampling, elicitation and tasks are declared', async () => {
    const snap = await snapshotMcp('everything', {
      transport: 'stdio',
      command: NODE,
      args: [pkg('server-everything'), 'stdio'],
      cwd: ROOT,
      env: [],
      ...LIMITS,
      capabilities: FULL_CAPS,
    });
    expect(snap.source.clientCapabilities).toEqual(FULL_CAPS);
    expect(snap.tools).toHaveLength(19);
    expect(new Set(names(snap))).toEqual(
      new Set([
        ...BASE_EVERYTHING,
        'get-roots-list',
        'trigger-elicitation-request',
        'trigger-url-elicitation',
        'trigger-sampling-request',
        'trigger-sampling-request-async',
        'trigger-elicitation-request-async',
      ]),
    );
    expect(readOnly(snap)).toBe(10);
  });

  describe('with a temp dir', () => {
    let dir: ReturnType<typeof tempDir>;
    beforeAll(() => {
      dir = tempDir();
    });
    afterAll(() => dir.cleanup());

    it('server-filesystem lists 14 tools, 10 read-only', async () => {
      const snap = await snapshotMcp(
        'fs',
        {
          transport: 'stdio',
          command: NODE,
          args: [pkg('server-filesystem'), dir.path],
          cwd: dir.path,
          env: [],
          ...LIMITS,
          // The directory it serves is the repository here, named writable as a user would name a
          // directory of theirs (the sandbox lets a server write only inside the repository).
          // The server is installed outside that repository (toolgate's own node_modules): readable.
          containment: { sandbox: 'on', network: 'loopback', writable: [dir.path], readable: [join(ROOT, 'node_modules')] },
        },
        dir.path,
      );
      expect(snap.server?.name).toBe('secure-filesystem-server');
      expect(names(snap)).toEqual([
        'read_file',
        'read_text_file',
        'read_media_file',
        'read_multiple_files',
        'write_file',
        'edit_file',
        'create_directory',
        'list_directory',
        'list_directory_with_sizes',
        'directory_tree',
        'move_file',
        'search_files',
        'get_file_info',
        'list_allowed_directories',
      ]);
      expect(readOnly(snap)).toBe(10);
      expect(snap.diagnostics.stderrTail).toContain('Secure MCP Filesystem Server running on stdio');
    });

    it('server-memory lists 9 tools, 3 read-only (MEMORY_FILE_PATH passed by name)', async () => {
      vi.stubEnv('MEMORY_FILE_PATH', join(dir.path, 'memory.jsonl'));
      try {
        const snap = await snapshotMcp('memory', {
          transport: 'stdio',
          command: NODE,
          args: [pkg('server-memory')],
          cwd: ROOT,
          env: ['MEMORY_FILE_PATH'],
          ...LIMITS,
        });
        expect(snap.server?.name).toBe('memory-server');
        expect(names(snap)).toEqual([
          'create_entities',
          'create_relations',
          'add_observations',
          'delete_entities',
          'delete_observations',
          'delete_relations',
          'read_graph',
          'search_nodes',
          'open_nodes',
        ]);
        expect(readOnly(snap)).toBe(3);
      } finally {
        vi.unstubAllEnvs();
      }
    });
  });
});
