// dist/THIRD-PARTY-LICENSES.txt: the licenses of the npm packages whose code is in the bundles.
// The bundles are minified with their license comments stripped, so the notices travel here:
// for each package with code in an output file (esbuild's metafile, inputs with bytes in the
// output), its license as package.json declares it, the text of its LICENSE / LICENCE / COPYING /
// NOTICE files, and the license comments in the code bundled from it. Some packages ship code of
// others already bundled into theirs (@readme/openapi-parser holds @apidevtools/json-schema-ref-
// parser and js-yaml): those are found in the source maps they ship, and their license files are
// read from the copy npm installed (the same package, maybe not the very same version).
// Deterministic: the same node_modules make the same bytes, so CI's "dist/ is fresh" check holds.
import { readFile, readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { transform } from 'esbuild';

/** File names that carry a package's license or notices. */
export const LICENSE_FILE = /^(licen[cs]e|copying|notice)([.\-_].*)?$/i;

/** The package directory (`…node_modules/name` or `…node_modules/@scope/name`) of a metafile input, or undefined for toolgate's own. */
export function packageDirOf(input) {
  const k = input.lastIndexOf('node_modules/');
  if (k < 0) return undefined;
  const parts = input.slice(k + 'node_modules/'.length).split('/');
  return input.slice(0, k) + 'node_modules/' + parts.slice(0, parts[0].startsWith('@') ? 2 : 1).join('/');
}

const byText = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const clean = (text) =>
  text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+$/gm, '')
    .replace(/^\n+|\s+$/g, '');

/** SPDX expression of a package.json (`license`, or the old `licenses` list). */
function declaredLicense(pkg) {
  const one = (l) => (typeof l === 'string' ? l : l && typeof l.type === 'string' ? l.type : undefined);
  if (one(pkg.license)) return one(pkg.license);
  if (Array.isArray(pkg.licenses)) {
    const all = pkg.licenses.map(one).filter(Boolean);
    if (all.length) return all.length === 1 ? all[0] : `(${all.join(' OR ')})`;
  }
  return 'UNKNOWN (no license field in package.json)';
}

function sourceOf(pkg) {
  const r = pkg.repository;
  const url = typeof r === 'string' ? r : r && typeof r.url === 'string' ? r.url + (typeof r.directory === 'string' ? ` (${r.directory})` : '') : undefined;
  return url ?? (typeof pkg.homepage === 'string' ? pkg.homepage : undefined);
}

/** License comments (as esbuild's `legalComments` finds them) of one JS file, those about a license or copyright only. */
async function licenseComments(file, root) {
  if (!/\.[cm]?js$/.test(file)) return [];
  const { legalComments } = await transform(await readFile(join(root, file), 'utf8'), { loader: 'js', legalComments: 'external' });
  const comments = (legalComments ?? '').match(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g) ?? [];
  return comments.map(clean).filter((c) => /licen[cs]|copyright|\(c\)|©|spdx/i.test(c));
}

/** Package names (the `node_modules/` chain, e.g. `a/node_modules/b`) in the source map a bundled file ships, if any. */
async function embeddedChains(file, root) {
  if (!/\.[cm]?js$/.test(file)) return [];
  const text = await readFile(join(root, file), 'utf8');
  const m = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(text);
  if (!m) return [];
  let map;
  try {
    map = m[1].startsWith('data:')
      ? JSON.parse(Buffer.from(m[1].slice(m[1].indexOf(',') + 1), m[1].includes(';base64,') ? 'base64' : 'utf8').toString('utf8'))
      : JSON.parse(await readFile(join(root, dirname(file), decodeURIComponent(m[1])), 'utf8'));
  } catch {
    return [];
  }
  const chains = new Set();
  for (const source of map.sources ?? []) {
    const k = source.indexOf('node_modules/');
    if (k < 0) continue;
    const dir = packageDirOf(source.slice(k));
    chains.add(dir.slice('node_modules/'.length));
  }
  return [...chains].sort(byText);
}

/** The License section of a package's README (for packages without a license file), or undefined. */
async function readmeLicense(dir) {
  const name = (await readdir(dir)).filter((f) => /^readme(\.(md|markdown|txt))?$/i.test(f)).sort(byText)[0];
  if (!name) return undefined;
  const lines = clean(await readFile(join(dir, name), 'utf8')).split('\n');
  const start = lines.findIndex((l) => /^#{1,6}\s*licen[cs]e\b/i.test(l));
  if (start < 0) return undefined;
  const level = /^#+/.exec(lines[start])[0].length;
  const end = lines.findIndex((l, i) => i > start && /^#+/.test(l) && /^#+/.exec(l)[0].length <= level);
  const text = clean(lines.slice(start + 1, end < 0 ? undefined : end).join('\n'));
  return text.length >= 100 ? { name: `${name}, section "${lines[start].replace(/^#+\s*/, '')}" (the package has no license file)`, text } : undefined;
}

const isDir = (p) =>
  stat(p).then(
    (s) => s.isDirectory(),
    () => false,
  );

/** Where Node would find `name` from package directory `from` (relative to `root`), or undefined. */
async function resolvePackage(name, from, root) {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (!dir.endsWith('/node_modules') && (await isDir(join(root, candidate)))) return candidate;
    if (dir === '.' || dir === '/' || dir === '') return undefined;
  }
}

/** The installed copy of an embedded package chain (`a/node_modules/b`), resolved from package directory `from`. */
async function resolveChain(chain, from, root) {
  let dir = from;
  for (const name of chain.split('/node_modules/')) {
    dir = await resolvePackage(name, dir, root);
    if (!dir) return resolvePackage(chain.split('/node_modules/').at(-1), from, root);
  }
  return dir;
}

/**
 * The packages with code in the outputs of `metafiles`, one per name and version, sorted:
 * `{ name, version, license, source, dirs, files: [{ name, text }], comments }`.
 * @throws when a bundled package has no license file (add one by hand before shipping it).
 */
export async function bundledPackages(metafiles, root) {
  const inputsByDir = new Map();
  for (const meta of metafiles) {
    for (const output of Object.values(meta.outputs)) {
      for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
        const dir = packageDirOf(input);
        if (!dir || bytesInOutput === 0) continue;
        if (!inputsByDir.has(dir)) inputsByDir.set(dir, new Set());
        inputsByDir.get(dir).add(input);
      }
    }
  }
  const byId = new Map();
  const entryOf = async (dir) => {
    const pkg = JSON.parse(await readFile(join(root, dir, 'package.json'), 'utf8'));
    const id = `${pkg.name} ${pkg.version}`;
    if (!byId.has(id)) {
      const names = (await readdir(join(root, dir))).filter((f) => LICENSE_FILE.test(f)).sort(byText);
      const files = [];
      for (const name of names) files.push({ name, text: clean(await readFile(join(root, dir, name), 'utf8')) });
      if (files.length === 0) {
        const readme = await readmeLicense(join(root, dir));
        if (readme) files.push(readme);
      }
      if (files.length === 0)
        throw new Error(
          `${pkg.name}@${pkg.version} (${dir}) is bundled into dist/ but has no LICENSE, LICENCE, COPYING or NOTICE file: find its license text before shipping it`,
        );
      byId.set(id, {
        name: pkg.name,
        version: pkg.version,
        license: declaredLicense(pkg),
        source: sourceOf(pkg),
        direct: false,
        within: [],
        files,
        comments: [],
      });
    }
    return byId.get(id);
  };
  const embedded = [];
  for (const dir of [...inputsByDir.keys()].sort(byText)) {
    const entry = await entryOf(dir);
    entry.direct = true;
    for (const input of [...inputsByDir.get(dir)].sort(byText)) {
      for (const c of await licenseComments(input, root)) if (!entry.comments.includes(c)) entry.comments.push(c);
      for (const chain of await embeddedChains(input, root)) embedded.push({ chain, dir, input, container: `${entry.name} ${entry.version}` });
    }
  }
  for (const { chain, dir, input, container } of embedded) {
    const installed = await resolveChain(chain, dir, root);
    if (!installed)
      throw new Error(
        `${input} holds code of ${chain.split('/node_modules/').at(-1)} (its source map says so), which is not installed: find its license text before shipping it`,
      );
    if (installed === dir) continue;
    const entry = await entryOf(installed);
    const where = `${container} (${input.slice(dir.length + 1)})`;
    if (!entry.within.includes(where)) entry.within.push(where);
  }
  return [...byId.values()].sort((a, b) => byText(a.name, b.name) || byText(a.version, b.version));
}

const RULE = '-'.repeat(80);

/** The text of dist/THIRD-PARTY-LICENSES.txt for the builds' `metafiles` (paths relative to `root`). */
export async function thirdPartyLicenses(metafiles, root) {
  const packages = await bundledPackages(metafiles, root);
  const width = Math.max(...packages.map((p) => `${p.name} ${p.version}`.length));
  const out = [
    'Third-party software bundled in toolgate',
    '',
    'toolgate is MIT-licensed (see LICENSE). The files under dist/ also hold code of the npm packages',
    'below, bundled and minified by esbuild. For each: its license as its package.json declares it,',
    'the full text of its LICENSE, LICENCE, COPYING and NOTICE files, and the license comments found',
    'in the code bundled from it (which name code that package itself bundled from others).',
    'Generated by `npm run build` (scripts/third-party-licenses.mjs); do not edit.',
    '',
    `${packages.length} packages:`,
    ...packages.map(
      (p) =>
        `  ${`${p.name} ${p.version}`.padEnd(width)}  ${p.license}${
          p.direct
            ? ''
            : '  (inside ' +
              p.within
                .map((w) => w.split(' (')[0])
                .filter((w, i, a) => a.indexOf(w) === i)
                .join(', ') +
              ')'
        }`,
    ),
  ];
  for (const p of packages) {
    out.push('', RULE, `${p.name} ${p.version}`, `License: ${p.license}`);
    if (p.source) out.push(`Source: ${p.source}`);
    if (p.within.length) {
      out.push(`Bundled inside: ${p.within.sort(byText).join(', ')}, which ship${p.within.length === 1 ? 's' : ''} it pre-bundled;`);
      out.push(`  the license below is that of the copy npm installed${p.direct ? ' (also bundled directly)' : ''}.`);
    }
    for (const f of p.files) out.push('', `${f.name}:`, '', f.text);
    if (p.comments.length) out.push('', 'License comments in its bundled code:', '', p.comments.join('\n\n'));
  }
  return out.join('\n') + '\n';
}
