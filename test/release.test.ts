/**
 * The version agrees everywhere (docs/RELEASING.md): package.json and package-lock.json, the
 * version the built bundles report (src/version.ts takes it from the build), and the major tag
 * that README.md, docs/ and examples/workflows tell users to pin (action.yml has no version: its tag is).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleOptions } from '../scripts/bundles.mjs';
import { agreementProblems, readRelease, type Release } from '../scripts/release-check.mjs';
import { REPO, runCli } from './support/run-dist.js';

const FIXTURE = join(REPO, 'test/fixtures/surfaces/@modelcontextprotocol+server-memory/2026.8.31.json');

const release = readRelease(REPO);
const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
const major = `v${version.split('.')[0]}`;

describe('the release version agrees', () => {
  it('package.json, package-lock.json, dist/, src/version.ts, action.yml, README, docs/ and the example workflows', () => {
    // The reference pages name the setup-sandbox sub-action's tag too.
    expect(Object.keys(release.docs)).toEqual(expect.arrayContaining(['README.md', 'docs/action.md', 'docs/security.md', 'docs/rules.md']));
    expect(agreementProblems(release)).toEqual([]);
    expect(agreementProblems(release, `v${version}`)).toEqual([]);
  });

  it('the built CLI reports it, in --version and in its JSON report; the Action is built with it', async () => {
    expect(release.cliVersion).toBe(version);
    const r = await runCli(['audit', '--tools-json', FIXTURE, '--format', 'json'], { cwd: REPO });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { toolgate: string }).toolgate).toBe(version);
    // The Action (src/action/index.ts) and the CLI are one build, which defines the version for both.
    const [main] = await bundleOptions();
    expect(main!.entryPoints).toEqual({ index: 'src/action/index.ts', cli: 'src/cli/bin.ts' });
    expect(main!.define).toEqual({ __TOOLGATE_VERSION__: JSON.stringify(version) });
  });

  it('README pins the Action and the git install to the moving major tag', () => {
    const readme = release.docs['README.md']!;
    expect(readme).toContain(`uses: toolgate/toolgate@${major}`);
    expect(readme).toContain(`github:toolgate/toolgate#${major}`);
    expect(readme).toContain('docs/RELEASING.md');
  });
});

describe('agreementProblems finds each disagreement', () => {
  const broken = (change: Partial<Release>): Release => ({ ...release, ...change });
  it('a tag that is not v + the version', () => {
    expect(agreementProblems(release, 'v99.0.0').join('\n')).toMatch(/the tag v99\.0\.0 is not v/);
  });
  it('a lockfile or a dist/ from another version', () => {
    expect(agreementProblems(broken({ lockVersions: { 'package-lock.json version': '0.0.1' } })).join('\n')).toMatch(/package-lock\.json version is 0\.0\.1/);
    expect(agreementProblems(broken({ cliVersion: '0.0.1' })).join('\n')).toMatch(/dist\/cli\.js --version says 0\.0\.1.*npm run build/);
  });
  it('a version written into src/version.ts, or action.yml running something else', () => {
    expect(agreementProblems(broken({ versionTs: "export const VERSION = '1.2.3';" })).length).toBe(2);
    expect(agreementProblems(broken({ actionYml: 'runs:\n  using: node24\n  main: lib/main.js\n' })).join('\n')).toMatch(/action\.yml runs lib\/main\.js/);
  });
  it('a README or workflow pinning another major, a branch or an exact release', () => {
    for (const pin of ['toolgate/toolgate@v1', 'toolgate/toolgate@main', 'toolgate/toolgate@v0.1.0', 'github:toolgate/toolgate#main']) {
      const docs = { ...release.docs, 'examples/workflows/x.yml': `      - uses: ${pin}\n` };
      expect(agreementProblems(broken({ docs })).join('\n'), pin).toMatch(/examples\/workflows\/x\.yml pins toolgate\/toolgate/);
    }
    expect(agreementProblems(broken({ version: '1.0.0', lockVersions: {}, cliVersion: '1.0.0' })).join('\n')).toMatch(/not @v1 \(the major of 1\.0\.0\)/);
  });
});
