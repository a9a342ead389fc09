/**
 * A package registry on 127.0.0.1 for tests that run the real `npm`/`npx` offline: it serves
 * packuments and tarballs made with `npm pack` from directories the test writes, and counts the
 * requests it gets (a run that must not touch the network is checked by that count).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';

/** A running registry. */
export interface LocalRegistry {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  /** Requests served so far. */
  requests(): number;
  close(): Promise<void>;
}

/**
 * Packs each package directory (with `npm pack`, into `packDir`) and serves it as its only
 * version. Each directory needs a `package.json` with `name` and `version`.
 */
export async function startRegistry(packages: readonly string[], packDir: string): Promise<LocalRegistry> {
  const served = new Map<string, { meta: { name: string; version: string }; tgz: Buffer; file: string }>();
  for (const dir of packages) {
    const r = spawnSync('npm', ['pack', '--silent', '--pack-destination', packDir], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    if (r.status !== 0) throw new Error(`npm pack failed in ${dir}: ${r.stderr}`);
    const file = r.stdout.trim().split('\n').at(-1)!;
    const meta = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string; version: string };
    served.set(meta.name, { meta, tgz: readFileSync(join(packDir, file)), file });
  }
  let count = 0;
  let base = '';
  const server: Server = createServer((req, res) => {
    count++;
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!.slice(1));
    const tarball = /^(.+)\/-\/(.+\.tgz)$/.exec(path);
    const pkg = served.get(tarball ? tarball[1]! : path);
    if (!pkg) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    if (tarball) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(pkg.tgz);
      return;
    }
    const { name, version } = pkg.meta;
    const packument = {
      name,
      'dist-tags': { latest: version },
      versions: {
        [version]: {
          ...pkg.meta,
          _id: `${name}@${version}`,
          dist: {
            tarball: `${base}${name}/-/${pkg.file}`,
            shasum: createHash('sha1').update(pkg.tgz).digest('hex'),
            integrity: `sha512-${createHash('sha512').update(pkg.tgz).digest('base64')}`,
          },
        },
      },
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(packument));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
  return { url: base, requests: () => count, close: () => new Promise((r) => server.close(() => r())) };
}
