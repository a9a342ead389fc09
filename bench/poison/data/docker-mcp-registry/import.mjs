// Writes tools.json: every servers/*/tools.json of docker/mcp-registry at one commit, by server.
// Usage: node import.mjs <git dir of docker/mcp-registry> [commit] > tools.json
import { execFileSync } from 'node:child_process';

const [gitDir, commit = 'HEAD'] = process.argv.slice(2);
const git = (...args) => execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
const sha = git('rev-parse', commit).trim();
const files = git('ls-tree', '-r', '--name-only', sha, 'servers/')
  .split('\n')
  .filter((f) => /^servers\/[^/]+\/tools\.json$/.test(f));
const servers = {};
for (const f of files) {
  const tools = JSON.parse(git('show', `${sha}:${f}`));
  if (tools.length > 0) servers[f.split('/')[1]] = tools;
}
process.stdout.write(`${JSON.stringify({ repository: 'docker/mcp-registry', commit: sha, servers }, null, 1)}\n`);
