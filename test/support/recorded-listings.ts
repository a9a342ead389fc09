/**
 * The recorded `tools/list` results of published MCP servers in test/fixtures (surfaces,
 * upgrades, exports; each folder's README says how they were recorded), by npm package and
 * version. A listing recorded in two folders (the head of an upgrade is often the one a surface
 * test already has: the same bytes) is one listing.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './mcp-fixtures.js';

/** One recorded listing. */
export interface RecordedListing {
  /** npm package, e.g. `@sentry/mcp-server`. */
  pkg: string;
  version: string;
  /** Absolute path. */
  file: string;
  /** The folder under its fixtures directory, e.g. `@sentry+mcp-server`, `sentry-mcp-server`. */
  folder: string;
}

const DIRS = ['test/fixtures/surfaces', 'test/fixtures/upgrades', 'test/fixtures/exports'];

/** test/fixtures/exports names its one server by folder (its README gives the package). */
const EXPORT_PACKAGES: Record<string, string> = { 'server-filesystem': '@modelcontextprotocol/server-filesystem' };

/** The package a fixtures folder records: surfaces `@scope+name`, upgrades by recordings.json. */
function packageOf(dir: string, folder: string, upgrades: Record<string, { package: string }>): string {
  if (dir.endsWith('/upgrades')) return upgrades[folder]?.package ?? folder;
  if (dir.endsWith('/exports')) return EXPORT_PACKAGES[folder] ?? folder;
  return folder.replace('+', '/');
}

const byVersion = (a: RecordedListing, b: RecordedListing) => a.version.localeCompare(b.version, 'en', { numeric: true });

/** Every distinct recorded listing, in folder order (a listing recorded twice: where it is first). */
export function recordedListings(): RecordedListing[] {
  const upgrades = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/upgrades/recordings.json'), 'utf8')) as Record<string, { package: string }>;
  // package@version -> digest: one version recorded twice must be the same bytes.
  const seen = new Map<string, string>();
  const out: RecordedListing[] = [];
  for (const d of DIRS) {
    for (const folder of readdirSync(join(ROOT, d)).sort()) {
      const dir = join(ROOT, d, folder);
      if (!existsSync(dir) || !statSync(dir).isDirectory()) continue;
      for (const f of readdirSync(dir).filter((x) => /^\d[\w.-]*\.json$/.test(x))) {
        const file = join(dir, f);
        const pkg = packageOf(d, folder, upgrades);
        const version = f.replace(/\.json$/, '');
        const digest = createHash('sha256').update(readFileSync(file)).digest('hex');
        const had = seen.get(`${pkg}@${version}`);
        if (had !== undefined && had !== digest) throw new Error(`${pkg}@${version} is recorded twice with different bytes (${file})`);
        if (had !== undefined) continue;
        seen.set(`${pkg}@${version}`, digest);
        out.push({ pkg, version, file, folder });
      }
    }
  }
  return out;
}

/** The latest recorded listing of each package, in package order. */
export function latestListings(): RecordedListing[] {
  const latest = new Map<string, RecordedListing>();
  for (const l of recordedListings()) {
    const had = latest.get(l.pkg);
    if (!had || byVersion(had, l) < 0) latest.set(l.pkg, l);
  }
  return [...latest.values()].sort((a, b) => (a.pkg < b.pkg ? -1 : a.pkg > b.pkg ? 1 : 0));
}
