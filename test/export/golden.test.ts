/**
 * Golden exports: every target for a real server's contract (server-filesystem
 * 2026.8.31, `runtime.deny: [move_file]`) and for an OpenAPI integration (GitHub REST, with
 * disabled and promoted operations). The outputs are committed under test/golden/exports/<case>/:
 * `<target>.<ext>` for an export, `<target>.error.txt` where the target cannot represent the
 * contract (the error a user gets). Regenerate with `npm run golden` and read the diff.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderExport } from '../../src/export/render.js';
import { EXPORT_TARGETS } from '../../src/export/targets/index.js';
import { ConfigError } from '../../src/util/errors.js';
import { CASES, inputOf, policyOf } from './support.js';

const UPDATE = process.env.UPDATE_GOLDEN === '1';
const GOLDEN = join(process.cwd(), 'test/golden/exports');

/** The export's text, or the error a user would read. */
export function outcome(target: (typeof EXPORT_TARGETS)[number], input: Parameters<typeof renderExport>[1]): { file: string; text: string } {
  try {
    return { file: `${target.id}${extname(target.suggestedFile('x'))}`, text: renderExport(target, input) };
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    return { file: `${target.id}.error.txt`, text: `${e.message}\nfix: ${e.fix ?? ''}\n` };
  }
}

describe.each(Object.entries(CASES))('golden exports: %s', (name, c) => {
  it.each(EXPORT_TARGETS.map((t) => [t.id, t] as const))('%s', async (_id, target) => {
    const input = inputOf(policyOf(c.policy), await c.contract());
    const { file, text } = outcome(target, input);
    const path = join(GOLDEN, name, file);
    if (UPDATE) {
      mkdirSync(join(GOLDEN, name), { recursive: true });
      writeFileSync(path, text);
    }
    expect(existsSync(path), `${path} is missing: run npm run golden`).toBe(true);
    expect(text).toBe(readFileSync(path, 'utf8'));
    // Deterministic: the same input gives the same bytes.
    expect(outcome(target, inputOf(policyOf(c.policy), await c.contract())).text).toBe(text);
  });
});
