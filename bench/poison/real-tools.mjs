// The real benign tools of bench/poison (README.md): Docker's MCP registry catalog and the
// recorded published servers, as MCP tools. Shared by run.mjs (benign sets) and speed.mjs (time).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..', '..');
const readJson = (p) => JSON.parse(readFileSync(p, 'utf8'));

/** Docker's catalog lists arguments as `arguments: [{name, type, desc}]`; as an MCP tool, an inputSchema. */
function asMcpTool(t) {
  if (t.inputSchema || !t.arguments) return t;
  const { arguments: args, ...rest } = t;
  const properties = Object.fromEntries(
    args.map((a) => [a.name, { type: a.type, ...(a.desc ? { description: a.desc } : {}), ...(a.items ? { items: a.items } : {}) }]),
  );
  return { ...rest, inputSchema: { type: 'object', properties } };
}

/** Every real benign surface: {set: 'docker' | 'recorded', name, tools, instructions?}. */
export function realSurfaces() {
  const out = [];
  const docker = readJson(join(HERE, 'data', 'docker-mcp-registry', 'tools.json'));
  for (const [server, tools] of Object.entries(docker.servers)) out.push({ set: 'docker', name: server, tools: tools.map(asMcpTool) });
  for (const dir of ['test/fixtures/surfaces', 'test/fixtures/upgrades'])
    for (const pkg of readdirSync(join(ROOT, dir)).filter((p) => statSync(join(ROOT, dir, p)).isDirectory()))
      for (const f of readdirSync(join(ROOT, dir, pkg)).filter((x) => /^\d[\w.-]*\.json$/.test(x))) {
        const ins = join(ROOT, dir, pkg, f.replace(/\.json$/, '.instructions.txt'));
        const rec = readJson(join(ROOT, dir, pkg, f));
        out.push({ set: 'recorded', name: `${pkg}/${f}`, tools: rec.tools ?? rec, ...(existsSync(ins) ? { instructions: readFileSync(ins, 'utf8') } : {}) });
      }
  return out;
}

/**
 * The first `n` real tools (Docker's catalog, then the recorded servers) as one surface. Names stay
 * as served (a tool's text names its siblings); only a repeated name gets a suffix.
 */
export function realTools(n) {
  const seen = new Set();
  return realSurfaces()
    .flatMap((s) => s.tools)
    .slice(0, n)
    .map((t) => {
      let name = t.name;
      for (let k = 2; seen.has(name); k++) name = `${t.name}_${k}`;
      seen.add(name);
      return { ...t, name };
    });
}
