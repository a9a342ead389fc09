/**
 * Real OpenAPI documents through the built CLI as a user runs it: `toolgate update` writes the
 * contract, `toolgate check` passes on it (Stripe's 4 MB description with its cyclic schemas and
 * form-encoded bodies, test/fixtures/openapi/README.md), and a pull request that turns a schema
 * into a reference bomb fails the check with the `$ref` named. Figures: bench/openapi-real.mjs.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { RepoTemplates } from '../support/action-repo.js';
import { runCli, tempWorkspace, type RunResult } from '../support/run-dist.js';

const REAL = resolve('test/fixtures/openapi/real');
const TIMEOUT = 120_000;

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.reverse()) c();
  cleanups = [];
});

/** A repository with Stripe's document, its integration and a toolgate.yml naming it, at `dir`. */
function stripeRepo(dir: string): void {
  mkdirSync(join(dir, '.git'));
  mkdirSync(join(dir, 'api'));
  copyFileSync(join(REAL, 'stripe/spec3.yaml'), join(dir, 'api/spec3.yaml'));
  copyFileSync(join(REAL, 'stripe/integration.json'), join(dir, 'api/integration.json'));
  writeFileSync(join(dir, 'toolgate.yml'), 'sources:\n  - id: stripe\n    openapi: api/integration.json\n');
}

// `toolgate update` of Stripe runs once for the file: each case gets a copy of the repository it wrote.
const templates = new RepoTemplates();
afterAll(() => templates.dispose());

/** A copy of the Stripe repository after `toolgate update` (the built CLI) ran in it, and that run. */
function updatedStripeRepo(): Promise<{ dir: string; up: RunResult }> {
  const w = tempWorkspace('tg-openapi-real-');
  cleanups.push(w.cleanup);
  return templates.copy(
    'stripe',
    async (dir) => {
      stripeRepo(dir);
      return { up: await runCli(['update'], { cwd: dir, timeoutMs: TIMEOUT }) };
    },
    join(w.dir, 'repo'),
  );
}

describe('Stripe through the CLI', () => {
  it('update writes the contract of the 18 included operations; check passes on it', { timeout: TIMEOUT }, async () => {
    const { dir, up } = await updatedStripeRepo();
    expect(up.code, up.stderr).toBe(0);
    // The count is of the tools an agent can reach: the 11 reads (the 7 writes stay disabled).
    expect(up.stderr).toContain('wrote .toolgate/stripe.surface.json (11 tools');
    const contract = JSON.parse(readFileSync(join(dir, '.toolgate/stripe.surface.json'), 'utf8')) as {
      tools: { name: string; safetyClass: string; origin: { method: string; requestBody?: string[] } }[];
    };
    const byClass = (c: string) => contract.tools.filter((t) => t.safetyClass === c).map((t) => t.name);
    expect(contract.tools).toHaveLength(18);
    expect(byClass('read')).toHaveLength(11);
    expect(byClass('disabled').sort()).toEqual(
      ['DeleteCustomersCustomer', 'PostCharges', 'PostCustomers', 'PostFiles', 'PostPaymentIntents', 'PostPaymentIntentsIntentConfirm', 'PostRefunds'].sort(),
    );
    expect(contract.tools.find((t) => t.name === 'PostCharges')!.origin.requestBody).toEqual(['application/x-www-form-urlencoded']);

    const check = await runCli(['check', '--format', 'json'], { cwd: dir, timeoutMs: TIMEOUT });
    expect(check.code, check.stderr).toBe(0);
  });

  it('a document edited into a reference bomb fails the check (exit 2), naming the $ref', { timeout: TIMEOUT }, async () => {
    const { dir, up } = await updatedStripeRepo();
    expect(up.code, up.stderr).toBe(0);
    // The balance schema, which GetBalance answers with, now holds a chain of ten levels ten wide.
    const levels = Array.from({ length: 11 }, (_, i) =>
      i === 0
        ? '    bomb0:\n      type: string\n'
        : `    bomb${i}:\n      type: object\n      properties:\n${Array.from({ length: 10 }, (_, j) => `        p${j}:\n          $ref: '#/components/schemas/bomb${i - 1}'\n`).join('')}`,
    );
    const spec = join(dir, 'api/spec3.yaml');
    const text = readFileSync(spec, 'utf8');
    expect(text).toContain('\n  schemas:\n    account:\n');
    const balance = text.indexOf('\n    balance:\n');
    const props = text.indexOf('\n      properties:\n', balance) + '\n      properties:\n'.length;
    expect(balance > 0 && props > balance).toBe(true);
    const withRef = `${text.slice(0, props)}        bomb:\n          $ref: '#/components/schemas/bomb10'\n${text.slice(props)}`;
    const bombed = withRef.replace('\n  schemas:\n    account:\n', `\n  schemas:\n${levels.join('')}    account:\n`);
    expect(bombed).not.toBe(text);
    writeFileSync(spec, bombed);
    const check = await runCli(['check'], { cwd: dir, timeoutMs: TIMEOUT });
    expect(check.code).toBe(2);
    // The walk meets the chain where the document has it, among the components (before `paths`).
    expect(check.stderr).toMatch(
      /once their \$refs are resolved \(a reference bomb: the \$ref at #\/components\/schemas\/bomb\d+\/properties\/p\d, to #\/components\/schemas\/bomb\d+,/,
    );
  });
});
