import { snapshotOpenApi } from './src/sources/openapi/index.js';
const f = process.argv[2]!;
try {
  const s = await snapshotOpenApi(f, process.argv[3] === 'remote' ? { allowRemoteRefs: true } : {});
  console.log(JSON.stringify(s, null, 1).slice(0, Number(process.env.N ?? 6000)));
} catch (e) { console.log('ERR', (e as any).name, (e as any).describe?.() ?? (e as Error).message, (e as any).ruleId ?? '', (e as any).reason ?? ''); }
console.log('rss', Math.round(process.resourceUsage().maxRSS / 1024), 'MB');
