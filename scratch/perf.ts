import { DEFAULT_RUNTIME } from '../src/config/policy.ts';
import { exportSet } from '../src/export/export-set.ts';
import { renderExport } from '../src/export/render.ts';
import { EXPORT_TARGETS } from '../src/export/targets/index.ts';
import { normalizeSnapshot } from '../src/surface/normalize.ts';
const tools = Array.from({ length: 5000 }, (_, i) => ({ name: `tool_${i}`, description: 'd', inputSchema: { type: 'object', properties: { q: { type: 'string' }, mode: { enum: ['a', 'b'] }, n: { type: 'number' } } }, annotations: { readOnlyHint: i % 2 === 0 } }));
const s = normalizeSnapshot({ source: { id: 'big', kind: 'recorded' }, tools: tools.map((tool) => ({ tool })), live: false, diagnostics: { durationMs: 0 } }).surface;
const { admitted, refused } = exportSet(s, DEFAULT_RUNTIME);
const input = { sourceId: 'big', server: 'big', contractFile: 'c', admitted, refused, runtime: DEFAULT_RUNTIME, transport: { command: 'node', args: ['s.js'] } };
for (const t of EXPORT_TARGETS) {
  const t0 = performance.now();
  let out = '';
  try { out = renderExport(t, input); } catch (e) { out = 'ERR ' + (e as Error).message.slice(0, 60); }
  console.log(t.id.padEnd(18), (performance.now() - t0).toFixed(1).padStart(7), 'ms', String(out.length).padStart(9), 'chars');
}
