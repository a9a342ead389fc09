/**
 * Tokens per turn pinned in the contract and reused, on the real recorded listings of
 * @playwright/mcp 0.0.40 and 0.0.83: a pinned total stands for the same digest (the tokenizer is
 * not even loaded), a change to review is counted, `update` writes the total, and a hand-edited
 * total is stale whenever the run counts.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parsePolicy } from '../../src/config/policy.js';
import { readContract } from '../../src/contract/store.js';
import { runCheck } from '../../src/run-check.js';
import { readRecorded } from '../../src/sources/recorded.js';
import type { Surface } from '../../src/surface/model.js';
import { normalizeSnapshot } from '../../src/surface/normalize.js';
import { pinnedTokens, tokenCost, tokenCounter, tokenFacts, type TokenCounter } from '../../src/surface/tokens.js';
import { silentLogger } from '../../src/util/logger.js';
import { ROOT, tempDir } from '../support/mcp-fixtures.js';

const fixture = (v: string) => join(ROOT, 'test/fixtures/upgrades/playwright-mcp', `${v}.json`);
const surfaceOf = async (v: string): Promise<Surface> => normalizeSnapshot(await readRecorded('server', fixture(v))).surface;

let oldS: Surface;
let newS: Surface;
let count: TokenCounter;
beforeAll(async () => {
  [oldS, newS, count] = await Promise.all([surfaceOf('0.0.40'), surfaceOf('0.0.83'), tokenCounter()]);
});

/** A counter loader that records whether it was called. */
function loader(): { load: () => Promise<TokenCounter>; calls: () => number } {
  let n = 0;
  return {
    load: () => {
      n++;
      return Promise.resolve(count);
    },
    calls: () => n,
  };
}

const pinned = (s: Surface): Surface => ({ ...s, tokens: pinnedTokens(tokenCost(s.tools, count)) });

describe('tokenFacts', () => {
  it('takes the contract’s pinned total for the same tools without loading the tokenizer', async () => {
    const l = loader();
    const contract = { ...pinned(newS), tokens: { encoding: 'o200k_base' as const, perTurn: 3343 } };
    const r = await tokenFacts({ head: newS, contract, base: contract, countHead: false, counter: l.load });
    expect(r).toEqual({ facts: { perTurn: 3343 } });
    expect(l.calls()).toBe(0);
  });

  it('knows nothing and counts nothing when no total is pinned and nothing changed', async () => {
    const l = loader();
    expect(await tokenFacts({ head: newS, contract: newS, base: newS, countHead: false, counter: l.load })).toEqual({});
    expect(l.calls()).toBe(0);
  });

  it('a change review counts the head (a pinned total for it may be the author’s) and takes the base’s pinned total', async () => {
    const l = loader();
    const { facts } = await tokenFacts({ head: newS, base: pinned(oldS), countHead: false, counter: l.load });
    expect(facts).toMatchObject({ perTurn: 3343, base: 1868 });
    expect(l.calls()).toBe(1);
  });

  it('an unchanged pull request takes the base’s total for the same tools without loading the tokenizer', async () => {
    const l = loader();
    expect(await tokenFacts({ head: newS, base: pinned(newS), countHead: false, counter: l.load })).toEqual({ facts: { perTurn: 3343 } });
    expect(l.calls()).toBe(0);
  });

  it('counts a change to review whose head has no pinned total: the five most expensive tools, the base from its pinned total', async () => {
    const l = loader();
    const base = pinned(oldS);
    const { facts, cost } = await tokenFacts({ head: newS, contract: newS, base, countHead: false, counter: l.load });
    expect(facts?.perTurn).toBe(3343);
    expect(facts?.base).toBe(base.tokens?.perTurn);
    expect(facts!.perTurn - facts!.base!).toBe(1475);
    expect(facts?.top?.map((t) => t.name)).toEqual(['browser_take_screenshot', 'browser_emulate_media', 'browser_fill_form', 'browser_find', 'browser_drop']);
    expect(facts?.top?.[0]?.tokens).toBe(294);
    expect(cost?.perTurn).toBe(3343);
  });

  it('counts a base that has no total pinned for its tools (a contract written before tokens were pinned)', async () => {
    const l = loader();
    const { facts } = await tokenFacts({ head: newS, base: oldS, countHead: false, counter: l.load });
    expect(facts?.base).toBe(tokenCost(oldS.tools, count).perTurn);
    expect(l.calls()).toBeGreaterThan(0);
  });

  it('never takes a total pinned for other tools', async () => {
    const l = loader();
    const stale = { ...pinned(oldS), digest: oldS.digest };
    const { facts } = await tokenFacts({ head: newS, contract: stale, countHead: true, counter: l.load });
    expect(facts?.perTurn).toBe(3343);
  });
});

describe('the pinned total in the contract', () => {
  let dir: ReturnType<typeof tempDir> | undefined;
  afterEach(() => dir?.cleanup());

  /** A repository with the recorded listing as its source. */
  function repo(version: string, limits = ''): { root: string; contract: string; policy: ReturnType<typeof parsePolicy> } {
    dir = tempDir('tg-tokens-');
    const root = dir.path;
    mkdirSync(join(root, 'rec'));
    copyFileSync(fixture(version), join(root, 'rec/tools.json'));
    const yaml = `sources:\n  - id: server\n    recorded: rec/tools.json\n${limits}`;
    writeFileSync(join(root, 'toolgate.yml'), yaml);
    return { root, contract: join(root, '.toolgate/server.surface.json'), policy: parsePolicy(yaml, join(root, 'toolgate.yml'), root) };
  }

  it('is written by update, read back, and shown with the delta after an upgrade', async () => {
    const r = repo('0.0.40');
    await runCheck({ policy: r.policy, mode: 'update', root: r.root, logger: silentLogger });
    const text = readFileSync(r.contract, 'utf8');
    expect(text).toContain('"tokens": {\n    "encoding": "o200k_base",\n    "perTurn": 1868\n  },');
    expect((await readContract(r.contract))?.surface.tokens).toEqual({ encoding: 'o200k_base', perTurn: 1868 });

    // Unchanged: the pinned total is the head's, nothing is counted, so no top five.
    const clean = await runCheck({ policy: r.policy, mode: 'check', root: r.root, logger: silentLogger });
    expect(clean.exitCode).toBe(0);
    expect(clean.sources[0]?.tokens).toEqual({ perTurn: 1868 });

    // The server upgrades. Outside a pull request, drift is contract-stale and counts nothing;
    // update counts, shows the delta and pins the new total.
    const baseContract = (await readContract(r.contract))!.surface;
    copyFileSync(fixture('0.0.83'), join(r.root, 'rec/tools.json'));
    const drifted = await runCheck({ policy: r.policy, mode: 'check', root: r.root, logger: silentLogger });
    expect(drifted.findings.map((f) => f.ruleId)).toContain('contract-stale');
    expect(drifted.sources[0]?.tokens).toBeUndefined();
    const updated = await runCheck({ policy: r.policy, mode: 'update', root: r.root, logger: silentLogger });
    expect(updated.sources[0]?.tokens).toMatchObject({ perTurn: 3343, base: 1868 });
    expect(updated.sources[0]?.tokens?.top).toHaveLength(5);
    expect((await readContract(r.contract))?.surface.tokens?.perTurn).toBe(3343);

    // The pull request's change review: the head counted (never the author's pinned total), the
    // base's total as the base pinned it.
    const pr = await runCheck({ policy: r.policy, mode: 'check', root: r.root, logger: silentLogger, baseContracts: new Map([['server', baseContract]]) });
    expect(pr.sources[0]?.tokens).toMatchObject({ perTurn: 3343, base: 1868 });
    expect(pr.sources[0]?.tokens?.top).toHaveLength(5);
    // A pull request that adopts toolgate: the base had no tools.
    const adopt = await runCheck({ policy: r.policy, mode: 'check', root: r.root, logger: silentLogger, baseContracts: new Map([['server', null]]) });
    expect(adopt.sources[0]?.tokens).toMatchObject({ perTurn: 3343, base: 0 });
  });

  it('in a pull request, a total the author wrote is never believed: the delta is counted and a lying total is stale', async () => {
    const r = repo('0.0.40');
    await runCheck({ policy: r.policy, mode: 'update', root: r.root, logger: silentLogger });
    const base = (await readContract(r.contract))!.surface;
    // Same tools, a hand-edited total: stale against the base's (reviewed) total.
    writeFileSync(r.contract, readFileSync(r.contract, 'utf8').replace('"perTurn": 1868', '"perTurn": 12'));
    const same = await runCheck({ policy: r.policy, mode: 'check', root: r.root, logger: silentLogger, baseContracts: new Map([['server', base]]) });
    expect(same.sources[0]?.tokens).toEqual({ perTurn: 1868 });
    expect(same.findings.filter((f) => f.ruleId === 'contract-stale').map((f) => f.message)).toEqual([
      'the tokens pinned in the contract do not match the live surface',
    ]);
    // New tools and a lying total: the delta is counted.
    copyFileSync(fixture('0.0.83'), join(r.root, 'rec/tools.json'));
    await runCheck({ policy: r.policy, mode: 'update', root: r.root, logger: silentLogger });
    writeFileSync(r.contract, readFileSync(r.contract, 'utf8').replace('"perTurn": 3343', '"perTurn": 1900'));
    const grown = await runCheck({ policy: r.policy, mode: 'check', root: r.root, logger: silentLogger, baseContracts: new Map([['server', base]]) });
    expect(grown.sources[0]?.tokens).toMatchObject({ perTurn: 3343, base: 1868 });
    expect(grown.findings.some((f) => f.ruleId === 'contract-stale' && f.message.includes('tokens'))).toBe(true);
  });

  it('is stale when hand-edited and the run counts (a token limit); refused in another encoding', async () => {
    const r = repo('0.0.83', 'limits:\n  max-tokens: 100000\n');
    await runCheck({ policy: r.policy, mode: 'update', root: r.root, logger: silentLogger });
    writeFileSync(r.contract, readFileSync(r.contract, 'utf8').replace('"perTurn": 3343', '"perTurn": 1000'));
    const res = await runCheck({ policy: r.policy, mode: 'check', root: r.root, logger: silentLogger });
    const stale = res.findings.filter((f) => f.ruleId === 'contract-stale');
    expect(stale).toHaveLength(1);
    expect(stale[0]?.message).toBe('the tokens pinned in the contract do not match the live surface');
    expect(stale[0]?.location?.line).toBe(
      readFileSync(r.contract, 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('"tokens"')) + 1,
    );

    writeFileSync(r.contract, readFileSync(r.contract, 'utf8').replace('"o200k_base"', '"cl100k_base"'));
    await expect(readContract(r.contract)).rejects.toMatchObject({
      message: expect.stringContaining('must be "o200k_base"'),
      location: { pointer: '/tokens/encoding' },
    });
  });
});
