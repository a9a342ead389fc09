/**
 * A pull request that adopts a server (no contract on the base branch) puts its instructions before
 * a reviewer like its tools: they are new text every turn of the model reads, so `instructions-changed`
 * and `suspicious-text` judge them. The server is server-everything as recorded with its instructions
 * (test/fixtures/upgrades/modelcontextprotocol-server-everything), whose `get-roots-list` sentence
 * `suspicious-text` raises when no client declares roots.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parsePolicy } from '../../src/config/policy.js';
import { renderSummary } from '../../src/report/summary.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { runCheck } from '../../src/run-check.js';
import { silentLogger } from '../../src/util/logger.js';
import { ROOT } from '../support/mcp-fixtures.js';
import { tempWorkspace } from '../support/run-dist.js';

const FOLDER = join(ROOT, 'test/fixtures/upgrades/modelcontextprotocol-server-everything');
const ws = tempWorkspace('tg-adopt-');
afterAll(() => ws.cleanup());

describe('first adoption of a server with instructions', () => {
  it('judges the instructions as new: instructions-changed and suspicious-text on /server/instructions', async () => {
    const listing = JSON.parse(readFileSync(join(FOLDER, '2026.8.31.json'), 'utf8')) as Record<string, unknown>;
    const instructions = readFileSync(join(FOLDER, '2026.8.31.instructions.txt'), 'utf8');
    writeFileSync(join(ws.dir, 'tools.json'), JSON.stringify({ ...listing, instructions }));
    const yml = 'sources:\n  - id: everything\n    recorded: tools.json\n';
    writeFileSync(join(ws.dir, 'toolgate.yml'), yml);
    const policy = parsePolicy(yml, join(ws.dir, 'toolgate.yml'), ws.dir);
    await runCheck({ policy, mode: 'update', root: ws.dir, logger: silentLogger });
    // The base branch has no contract for the source: the pull request adopts it.
    const result = await runCheck({ policy, mode: 'check', root: ws.dir, logger: silentLogger, baseContracts: new Map([['everything', null]]) });
    const onInstructions = result.findings.filter((f) => f.pointer === '/server/instructions');
    expect(onInstructions.map((f) => f.ruleId).sort()).toEqual(['instructions-changed', 'suspicious-text']);
    expect(onInstructions.find((f) => f.ruleId === 'suspicious-text')?.message).toContain('get-roots-list');
    // The reviewer reads what is approved: the instructions' text, in the comment and the terminal.
    const firstWords = instructions.trim().split('\n')[0]?.slice(0, 40) ?? '';
    expect(firstWords.length).toBeGreaterThan(10);
    const comment = renderSummary(result);
    const terminal = renderTerminal(result, { color: false, listTools: false });
    for (const out of [comment, terminal]) expect(out.replace(/<\/?ins>|\\/g, '')).toContain(firstWords);
    expect(comment).toMatch(/the server&#39;s instructions: <ins>/);
  }, 60_000);
});
