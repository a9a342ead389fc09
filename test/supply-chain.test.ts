/**
 * What the published package is made of: its own LICENSE, no runtime dependencies (dist/ holds
 * every library it runs), and dist/THIRD-PARTY-LICENSES.txt naming every package whose code is
 * in the bundles with the full text of its license files. The bundled packages are found here
 * on their own: the bundles are rebuilt in memory with esbuild's metafile (same options as
 * `npm run build`), and the source maps of bundled files tell which packages they hold pre-bundled.
 */
import { build, transform, type Metafile } from 'esbuild';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bareImports, bundleOptions, withoutUnusedBanner } from '../scripts/bundles.mjs';
import { REPO } from './support/run-dist.js';

const read = (p: string) => readFileSync(join(REPO, p), 'utf8');
const normalize = (text: string) =>
  text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+$/gm, '')
    .trim();
const pkg = JSON.parse(read('package.json')) as Record<string, unknown> & { version: string; files: string[]; devDependencies: Record<string, string> };

/** `…node_modules/name` or `…node_modules/@scope/name` of a path inside a package. */
function packageDir(path: string): string | undefined {
  const k = path.lastIndexOf('node_modules/');
  if (k < 0) return undefined;
  const parts = path.slice(k + 'node_modules/'.length).split('/');
  return path.slice(0, k + 'node_modules/'.length) + parts.slice(0, parts[0]!.startsWith('@') ? 2 : 1).join('/');
}

let licenses = '';
/** Bundled files of packages (bytes in some output), relative to the repository. */
let bundledFiles: string[] = [];

beforeAll(async () => {
  licenses = read('dist/THIRD-PARTY-LICENSES.txt');
  const metafiles: Metafile[] = [];
  for (const options of await bundleOptions()) metafiles.push((await build({ ...options, write: false, metafile: true, logLevel: 'silent' })).metafile);
  const files = new Set<string>();
  for (const m of metafiles)
    for (const o of Object.values(m.outputs))
      for (const [input, { bytesInOutput }] of Object.entries(o.inputs)) if (bytesInOutput > 0 && packageDir(input)) files.add(input);
  bundledFiles = [...files].sort();
}, 120_000);

/** The section of THIRD-PARTY-LICENSES.txt about `name version`. */
function section(name: string, version: string): string | undefined {
  const parts = licenses.split(/\n-{80}\n/);
  return parts.find((p) => p.startsWith(`${name} ${version}\nLicense: `));
}

describe('LICENSE', () => {
  it('is the MIT license of toolgate authors, as package.json says, and is packed', () => {
    expect(pkg.license).toBe('MIT');
    const text = read('LICENSE');
    expect(text).toMatch(/^MIT License\n\nCopyright \(c\) 2026 toolgate authors\n/);
    expect(text).toContain('Permission is hereby granted, free of charge');
    expect(pkg.files).toContain('LICENSE');
    expect(pkg.files).toContain('dist/');
  });
});

describe('dependencies', () => {
  it('the package declares no runtime dependencies: every library is bundled (a devDependency)', () => {
    for (const key of ['dependencies', 'optionalDependencies', 'peerDependencies', 'bundleDependencies', 'bundledDependencies'])
      expect(pkg[key], key).toBeUndefined();
    for (const name of ['@actions/core', '@modelcontextprotocol/client', '@readme/openapi-parser', 'ajv', 'commander', 'yaml'])
      expect(pkg.devDependencies[name], name).toBeDefined();
  });

  it('dist/ loads nothing from node_modules: every import of the bundles is a Node built-in', async () => {
    const files = ['dist/cli.js', 'dist/index.js', 'dist/schema-worker.mjs', ...readdirSync(join(REPO, 'dist/chunks')).map((f) => `dist/chunks/${f}`)];
    expect(Object.fromEntries(await bareImports(files.map((f) => join(REPO, f))))).toEqual({});
  });
});

describe('start-up cost of the bundles', () => {
  const distFiles = () => ['dist/cli.js', 'dist/index.js', 'dist/schema-worker.mjs', ...readdirSync(join(REPO, 'dist/chunks')).map((f) => `dist/chunks/${f}`)];
  /** The banner every bundle is built with (createRequire, __filename, __dirname), as scripts/bundles.mjs writes it. */
  const banner = async () => ((await bundleOptions())[0]!.banner as { js: string }).js;

  it('the banner is taken off a file only when nothing after it says require, __filename or __dirname', async () => {
    const b = await banner();
    expect(withoutUnusedBanner(`${b}\nexport const a=1;`)).toBe('export const a=1;');
    for (const use of ['require("fs")', 'typeof require', 'x(__dirname)', 'f(__filename)', '"require" in a string'])
      expect(withoutUnusedBanner(`${b}\nvar a=${use};`), use).toBe(`${b}\nvar a=${use};`);
    // Not the three words: kept off.
    expect(withoutUnusedBanner(`${b}\nvar requirement=1,__dirnames=2;`)).toBe('var requirement=1,__dirnames=2;');
    // A file without the banner is left as it is.
    expect(withoutUnusedBanner('export const a=1;')).toBe('export const a=1;');
  });

  it('in dist/, exactly the files that use require, __filename or __dirname define them', async () => {
    const b = await banner();
    const withBanner: string[] = [];
    for (const f of distFiles()) {
      const text = read(f).replace(/^#!.*\n/, '');
      const rest = text.startsWith(b) ? text.slice(b.length) : text;
      const uses = /\b(require|__filename|__dirname)\b/.test(rest);
      expect(text.startsWith(b), f).toBe(uses);
      if (uses) withBanner.push(f);
    }
    // The CommonJS packages (the MCP SDK's dependencies, Ajv's runtime, undici, ...) still have it.
    expect(withBanner.length).toBeGreaterThan(3);
    expect(withBanner.length).toBeLessThan(distFiles().length / 2);
  });

  it('the Action does not load node:crypto at start: @actions/core asks for it only when it writes a file command', () => {
    const holders = distFiles().filter((f) => read(f).includes('ghadelimiter_'));
    expect(holders).toHaveLength(1);
    const text = read(holders[0]!);
    expect(text).not.toMatch(/from\s*"(node:)?crypto"/);
    expect(text).toContain('("node:crypto").randomUUID()');
    // The Action's entry and what it imports statically, transitively, import no node:crypto.
    const seen = new Set<string>();
    const visit = (f: string) => {
      if (seen.has(f)) return;
      seen.add(f);
      for (const m of read(f).matchAll(/(?:^|[;}\s])import\s*(?:[\w*{}\s,$]*from\s*)?["'](\.{1,2}\/[^"']+)["']/g)) visit(join(dirname(f), m[1]!));
    };
    visit('dist/index.js');
    for (const f of seen) expect(read(f), f).not.toMatch(/from\s*"(node:)?crypto"/);
    expect(seen.size).toBeGreaterThan(3);
  });

  it('yaml is bundled from its ESM build (node_modules/yaml/browser), not its CommonJS one', () => {
    const yaml = bundledFiles.filter((f) => /node_modules\/yaml\//.test(f));
    expect(yaml.length).toBeGreaterThan(10);
    expect(yaml.filter((f) => !/node_modules\/yaml\/browser\//.test(f))).toEqual([]);
  });
});

describe('dist/THIRD-PARTY-LICENSES.txt', () => {
  it('lists every package with code in the bundles, with the text of each of its license files', () => {
    const dirs = [...new Set(bundledFiles.map((f) => packageDir(f)!))];
    expect(dirs.length).toBeGreaterThan(30);
    for (const dir of dirs) {
      const p = JSON.parse(read(`${dir}/package.json`)) as { name: string; version: string };
      const s = section(p.name, p.version);
      expect(s, `${p.name} ${p.version} (${dir})`).toBeDefined();
      expect(licenses).toMatch(new RegExp(`^  ${(p.name + ' ' + p.version).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `, 'm'));
      const licenseFiles = readdirSync(join(REPO, dir)).filter((f) => /^(licen[cs]e|copying|notice)([.\-_].*)?$/i.test(f));
      if (licenseFiles.length === 0) expect(s, `${p.name}: README license section`).toMatch(/the package has no license file\):\n\n.{100,}/s);
      for (const f of licenseFiles) expect(s!.includes(normalize(readFileSync(join(REPO, dir, f), 'utf8'))), `${p.name} ${p.version}: ${f}`).toBe(true);
    }
  });

  it('lists the packages that bundled packages hold pre-bundled (from their source maps)', () => {
    const embedded = new Set<string>();
    for (const file of bundledFiles.filter((f) => /\.[cm]?js$/.test(f))) {
      const m = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(read(file));
      if (!m || m[1]!.startsWith('data:') || !existsSync(join(REPO, dirname(file), m[1]!))) continue;
      const map = JSON.parse(read(join(dirname(file), m[1]!))) as { sources?: string[] };
      const own = packageDir(file)!.slice(packageDir(file)!.lastIndexOf('node_modules/') + 'node_modules/'.length);
      for (const source of map.sources ?? []) {
        const dir = packageDir(source);
        const name = dir?.slice(dir.lastIndexOf('node_modules/') + 'node_modules/'.length);
        if (name && name !== own) embedded.add(name);
      }
    }
    // @readme/openapi-parser ships @apidevtools/json-schema-ref-parser and js-yaml inside its dist/.
    expect(embedded).toContain('js-yaml');
    for (const name of embedded) {
      expect(licenses, name).toMatch(new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\S+\\nLicense: `, 'm'));
    }
    // Listed as inside the package that ships it pre-bundled; js-yaml 5.5.0 is also bundled directly (toolgate init reads lockfiles with it).
    expect(licenses).toMatch(/^ {2}@apidevtools\/json-schema-ref-parser \S+ +MIT {2}\(inside @readme\/openapi-parser /m);
    expect(licenses).toMatch(/^js-yaml \S+\nLicense: MIT\nSource: nodeca\/js-yaml\nBundled inside: @readme\/openapi-parser /m);
  });

  it('keeps the license comments of the bundled code (which the minified bundles strip)', async () => {
    let found = 0;
    for (const file of bundledFiles.filter((f) => /\.[cm]?js$/.test(f))) {
      const { legalComments } = await transform(read(file), { loader: 'js', legalComments: 'external' });
      for (const comment of (legalComments ?? '').match(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g) ?? []) {
        if (!/licen[cs]|copyright/i.test(comment)) continue;
        found++;
        expect(licenses.includes(normalize(comment)), `${file}: ${comment.slice(0, 80)}`).toBe(true);
      }
    }
    expect(found).toBeGreaterThan(0);
  });

  it('says how many packages it lists, one section each', () => {
    const count = Number(/^(\d+) packages:$/m.exec(licenses)?.[1]);
    expect(licenses.split(/\n-{80}\n/).length - 1).toBe(count);
  });
});
