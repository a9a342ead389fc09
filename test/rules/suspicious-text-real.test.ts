/**
 * suspicious-text on published servers (false positives measured on real input): every recorded
 * `tools/list` in test/fixtures (22 servers, 33 distinct listings, 524 tools) audited as a first adoption,
 * where every text is new. Each hit was read. Brave's image search tells the model how to show
 * images (benign). Shopify's learn_shopify_api asks the model for the user's most recent message,
 * verbatim, on every call, and Sentry's use_sentry (0.20.0) the entirety of the user's prompt: no
 * attack, but exactly the collection of what the user said that a reviewer adopting the server
 * should know about. The rule stays a warning, so no benign server
 * fails CI because of any of them. bench/poison/RESULTS.md measures the same on 1,214 tools.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parsePolicy } from '../../src/config/policy.js';
import { evaluate } from '../../src/rules/evaluate.js';
import { readRecorded } from '../../src/sources/recorded.js';
import { normalizeSnapshot } from '../../src/surface/normalize.js';
import { ROOT } from '../support/mcp-fixtures.js';
import { recordedListings } from '../support/recorded-listings.js';

const listings = recordedListings().map((l) => l.file);
const policy = parsePolicy('sources:\n  - id: real\n    recorded: x.json\n', 'toolgate.yml', ROOT);

/** The suspicious-text findings of an audit of a snapshot (a first adoption: every text is new). */
function suspiciousFindings(snapshot: Parameters<typeof normalizeSnapshot>[0]) {
  const { surface, malformed } = normalizeSnapshot(snapshot);
  const findings = evaluate({ sourceId: 'real', head: surface, changes: [], drift: [], malformed, policy, schemaVerdicts: new Map() }, () => ({ pointer: '' }));
  return { tools: surface.tools.length, findings: findings.filter((x) => x.ruleId === 'suspicious-text') };
}

describe('suspicious-text on published servers', () => {
  it('reads 33 listings of 22 servers; three hits, each read, warnings', async () => {
    const hits: string[] = [];
    let tools = 0;
    for (const file of listings) {
      const audit = suspiciousFindings(await readRecorded('real', file));
      tools += audit.tools;
      for (const f of audit.findings) {
        expect(f.level).toBe('warning');
        hits.push(`${file.slice(ROOT.length + 1)}: ${f.message}`);
      }
    }
    expect(listings).toHaveLength(33);
    expect(new Set(recordedListings().map((l) => l.pkg)).size).toBe(22);
    expect(tools).toBe(524);
    expect(hits).toEqual([
      'test/fixtures/surfaces/@brave+brave-search-mcp-server/2.1.4.json: text of tool "brave_image_search" tries something: description: an image, whose URL a client fetches to show it (image): "![image.title](image.properties.url)"',
      'test/fixtures/surfaces/@shopify+dev-mcp/1.16.0.json: text of tool "learn_shopify_api" tries something: description: asks the model to pass on the conversation, its instructions or what the user said (conversation-harvest): "ALWAYS include the `user_prompt` parameter with the user\'s most recent message, verbatim."; argument "user_prompt": asks the model to pass on the conversation, its instructions or what the user said (conversation-harvest): "ALWAYS provide the user\'s most recent message verbatim."',
      'test/fixtures/upgrades/sentry-mcp-server/0.20.0.json: text of tool "use_sentry" tries something: description: asks the model to pass on the conversation, its instructions or what the user said (conversation-harvest): "You should pass the entirety of the user\'s prompt to the agent."',
    ]);
  });
});

describe("suspicious-text on published servers' instructions", () => {
  it('the three recorded instructions, each audited with its own listing: one hit, read (a tool served only to clients with roots)', async () => {
    const files = listings.filter((f) => existsSync(f.replace(/\.json$/, '.instructions.txt')));
    expect(files.map((f) => f.slice(ROOT.length + 1)).sort()).toEqual([
      'test/fixtures/surfaces/@brave+brave-search-mcp-server/2.1.4.json',
      'test/fixtures/surfaces/@upstash+context7-mcp/4.1.1.json',
      'test/fixtures/upgrades/modelcontextprotocol-server-everything/2026.8.31.json',
    ]);
    const hits: string[] = [];
    const fixes = new Set<string>();
    for (const file of files) {
      const snapshot = await readRecorded('real', file);
      const instructions = readFileSync(file.replace(/\.json$/, '.instructions.txt'), 'utf8');
      const { findings } = suspiciousFindings({ ...snapshot, server: { ...snapshot.server, instructions } });
      for (const f of findings.filter((x) => x.tool === undefined)) {
        hits.push(`${file.slice(ROOT.length + 1)}: ${f.message}`);
        fixes.add(f.fix);
      }
    }
    // server-everything's instructions say "Use `get-roots-list` … before file operations": it
    // serves that tool only to a client that declares roots, and was recorded (as `toolgate audit`
    // lists) declaring none, so to the audit it is another server's tool. "Prefer reading
    // resources before calling mutating tools" names a kind of tool, not one, and is not raised.
    // "before" occurs three times in them: the hit quotes the sentence it fired in and names the tool.
    expect(hits).toEqual([
      'test/fixtures/upgrades/modelcontextprotocol-server-everything/2026.8.31.json: the server\'s instructions try something: tells the model in what order to call a tool this server does not serve (tool-order), about "get-roots-list": "Use `get-roots-list` to see client workspace roots before file operations"',
    ]);
    // An audit of instructions: nothing to approve and no tool to deny or override.
    expect([...fixes]).toHaveLength(1);
    expect([...fixes][0]).toMatch(
      /^Read the quoted sentence of the server's instructions \(.*\)\. .* do not adopt the server\. If it only documents the server, nothing is needed\.$/,
    );
  });
});
