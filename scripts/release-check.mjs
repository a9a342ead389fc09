// Before tagging a release (docs/RELEASING.md): `npm run release:check -- vX.Y.Z`.
// Checks that the version agrees everywhere it appears (package.json, package-lock.json, the
// version the built CLI reports, the `@v<major>` that README.md, docs/ and examples/workflows tell users
// to pin), that the tag is `v` + package.json's version and does not exist yet, that the working
// tree is clean and that dist/ is what `npm run build` makes; then prints the tag commands.
// test/release.test.ts runs the same agreement checks on every test run.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse } from 'yaml';

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?$/;

/** What the agreement checks read, from a checkout at `root` (the CLI's version from dist/cli.js). */
export function readRelease(root) {
  const read = (p) => readFileSync(join(root, p), 'utf8');
  const lock = JSON.parse(read('package-lock.json'));
  // docs/RELEASING.md is left out: it names the pins with placeholders (`@<full commit sha>`).
  const docs = [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md') && f !== 'RELEASING.md')
      .sort()
      .map((f) => `docs/${f}`),
    ...readdirSync(join(root, 'examples/workflows'))
      .filter((f) => /\.ya?ml$/.test(f))
      .sort()
      .map((f) => `examples/workflows/${f}`),
  ];
  return {
    version: JSON.parse(read('package.json')).version,
    lockVersions: { 'package-lock.json version': lock.version, 'package-lock.json packages[""].version': lock.packages?.['']?.version },
    cliVersion: execFileSync(process.execPath, [join(root, 'dist/cli.js'), '--version'], { encoding: 'utf8' }).trim(),
    versionTs: read('src/version.ts'),
    actionYml: read('action.yml'),
    docs: Object.fromEntries(docs.map((p) => [p, read(p)])),
  };
}

/**
 * Where the release's version disagrees, one sentence each (empty: all agree). `tag`, when
 * given, must be `v` + the version.
 */
export function agreementProblems(r, tag) {
  const out = [];
  const m = SEMVER.exec(r.version ?? '');
  if (!m) return [`package.json version ${JSON.stringify(r.version)} is not a semantic version X.Y.Z`];
  const major = `v${m[1]}`;
  if (tag !== undefined && tag !== `v${r.version}`)
    out.push(`the tag ${tag} is not v${r.version}, package.json's version: run \`npm version\` first (docs/RELEASING.md)`);
  for (const [where, v] of Object.entries(r.lockVersions))
    if (v !== r.version) out.push(`${where} is ${v}, package.json says ${r.version}: run \`npm install\` (or \`npm version\`)`);
  if (r.cliVersion !== r.version)
    out.push(`dist/cli.js --version says ${r.cliVersion}, package.json says ${r.version}: run \`npm run build\` and commit dist/`);
  // src/version.ts holds no version of its own: the build injects package.json's.
  if (!r.versionTs.includes('__TOOLGATE_VERSION__')) out.push('src/version.ts no longer reads __TOOLGATE_VERSION__, which the build defines from package.json');
  for (const v of r.versionTs.match(/\d+\.\d+\.\d+[0-9A-Za-z.-]*/g) ?? [])
    if (v !== '0.0.0-dev') out.push(`src/version.ts names a version (${v}): the build injects package.json's`);
  // action.yml has no version: the tag of the commit it is in is its version.
  const action = parse(r.actionYml);
  if (action?.runs?.main !== 'dist/index.js') out.push(`action.yml runs ${action?.runs?.main}, not dist/index.js, which the build makes`);
  // What users pin: the major tag that moves with each release.
  let pins = 0;
  for (const [path, text] of Object.entries(r.docs)) {
    // The sub-action (toolgate/toolgate/setup-sandbox@v0) is pinned to the same tag.
    for (const p of text.matchAll(/toolgate\/toolgate(?:\/setup-sandbox)?(@|#)([^\s"'`)\]]*)/g)) {
      // A full commit SHA pins a commit, not a major: the README's example of pinning one.
      if (/^[0-9a-f]{40}$/.test(p[2])) continue;
      pins++;
      if (p[2] !== major) out.push(`${path} pins toolgate/toolgate${p[1]}${p[2]}, not ${p[1]}${major} (the major of ${r.version})`);
    }
  }
  if (!Object.entries(r.docs).some(([path, text]) => path === 'README.md' && text.includes(`uses: toolgate/toolgate@${major}`)))
    out.push(`README.md has no \`uses: toolgate/toolgate@${major}\``);
  if (pins === 0) out.push('README.md, docs/ and examples/workflows pin no toolgate/toolgate version');
  return out;
}

async function main(argv) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const tag = argv[0];
  if (!tag || argv.length > 1) {
    console.error('usage: npm run release:check -- vX.Y.Z');
    return 2;
  }
  const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
  const problems = [];
  if (git('status', '--porcelain') !== '') problems.push('the working tree has changes: release from a clean checkout of the merged release commit');
  else {
    // The same check as CI's: dist/ is what the build makes from this commit.
    execFileSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' });
    if (git('status', '--porcelain', '--', 'dist') !== '')
      problems.push('dist/ differs from what `npm run build` makes: rebuild, commit and release that commit');
  }
  problems.push(...agreementProblems(readRelease(root), tag));
  try {
    git('rev-parse', '-q', '--verify', `refs/tags/${tag}`);
    problems.push(`the tag ${tag} exists already: a release tag is never moved`);
  } catch {
    // not tagged yet: good
  }
  if (problems.length) {
    for (const p of problems) console.error(`release-check: ${p}`);
    return 1;
  }
  const major = tag.split('.')[0];
  console.log(`release-check: ${tag} agrees everywhere. Tag it and move ${major}:\n`);
  console.log(`  git tag -a ${tag} -m "toolgate ${tag}"`);
  console.log(`  git push origin ${tag}`);
  console.log(`  git tag -fa ${major} -m "toolgate ${tag}" "${tag}^{commit}"`);
  console.log(`  git push --force origin ${major}`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = await main(process.argv.slice(2));
