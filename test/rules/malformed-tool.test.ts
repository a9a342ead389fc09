/** malformed-tool: a listed tool that does not have the MCP `Tool` shape; the rest is still pinned. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { adHocPolicy } from '../../src/config/policy-resolve.js';
import { runCheck } from '../../src/run-check.js';
import { silentLogger } from '../../src/util/logger.js';
import { nodeFixture, ROOT } from '../support/mcp-fixtures.js';
import { buildSurface, readTool, ruleTests } from '../support/surface-builders.js';

const listing = buildSurface([
  { tool: readTool('good') },
  { tool: { name: 'bad_schema', inputSchema: 'not an object' } },
  { tool: { description: 'no name', inputSchema: { type: 'object' } } },
  { tool: readTool('also_good') },
]);
const clean = buildSurface([{ tool: readTool('good') }]);
const notObjects = buildSurface([
  { tool: { name: 'takes_list', inputSchema: { type: 'array', items: { type: 'string' } } } },
  { tool: { name: 'untyped', inputSchema: { properties: { q: { type: 'string' } } } } },
  { tool: readTool('fine') },
]);

ruleTests('malformed-tool', {
  fires: [
    {
      name: 'inputSchema is not an object, and a tool without a name',
      head: listing.surface,
      malformed: listing.malformed,
      expect: [
        {
          ruleId: 'malformed-tool',
          tool: 'bad_schema',
          level: 'error',
          data: { index: 1, problem: '`inputSchema` is a string, not a JSON object', pinned: true },
          message: 'tool #2 ("bad_schema") is malformed',
        },
        { ruleId: 'malformed-tool', data: { index: 2, problem: 'tool has no string `name`', pinned: false }, message: 'tool #3 cannot be pinned' },
      ],
    },
    {
      name: 'inputSchema whose type is not "object" (an array; missing): the MCP spec requires an object',
      head: notObjects.surface,
      malformed: notObjects.malformed,
      expect: [
        { ruleId: 'malformed-tool', tool: 'takes_list', data: { index: 0, problem: '`inputSchema.type` is "array", not "object"' } },
        { ruleId: 'malformed-tool', tool: 'untyped', data: { index: 1, problem: '`inputSchema.type` is missing, not "object"' } },
      ],
    },
    {
      name: 'a 2026-07-28 server whose page the SDK rejects: the bad tool is reported, not the whole list',
      run: async () => {
        const policy = adHocPolicy(
          { id: 'modern', kind: 'mcp', mcp: nodeFixture('modern.mjs', ['malformed']), contract: '/nonexistent/modern.surface.json' },
          ROOT,
        );
        const r = await runCheck({ policy, mode: 'audit', root: ROOT, logger: silentLogger });
        return r.findings;
      },
      expect: [{ ruleId: 'malformed-tool', tool: 'bad_schema', data: { index: 1 } }],
      timeout: 30_000,
    },
    {
      name: 'a recorded tools/list file with a nameless tool: reported at its line, the rest pinned',
      run: async () => {
        const dir = mkdtempSync(join(tmpdir(), 'tg-malformed-'));
        onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
        const file = join(dir, 'tools.json');
        writeFileSync(
          file,
          '{\n  "tools": [\n    { "name": "a", "inputSchema": { "type": "object" } },\n    { "description": "no name", "inputSchema": { "type": "object" } }\n  ]\n}\n',
        );
        const policy = adHocPolicy({ id: 'rec', kind: 'recorded', file, contract: join(dir, 'rec.surface.json') }, dir);
        const r = await runCheck({ policy, mode: 'audit', root: dir, logger: silentLogger });
        if (r.sources[0]?.surface?.tools.map((t) => t.name).join() !== 'a') throw new Error('tool "a" was not pinned');
        return r.findings;
      },
      expect: [{ ruleId: 'malformed-tool', data: { index: 1, problem: 'tool has no string `name`' }, location: { file: 'tools.json', line: 4 } }],
    },
  ],
  silent: [
    {
      name: 'a well-formed listing',
      head: clean.surface,
      malformed: clean.malformed,
      expect: [],
    },
    {
      name: 'a malformed tool is pinned and judged as served (no unannotated-tool: it declares nothing, so the defaults apply and its other findings stand)',
      head: listing.surface,
      watch: ['unlisted-tool'],
      expect: [],
    },
  ],
});
