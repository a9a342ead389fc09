import { snapshotOpenApi } from './src/sources/openapi/index.js';
for (const f of ['test/fixtures/openapi/github/integration.json', '/tmp/oa/all.json', 'test/fixtures/openapi/github/integration.json', '/tmp/oa/all.json']) {
  const t = performance.now();
  const s = await snapshotOpenApi(f);
  console.log(f, s.tools.length, Math.round(performance.now() - t), 'ms', 'rss', Math.round(process.memoryUsage().rss / 1048576));
}
console.log('maxrss', Math.round(process.resourceUsage().maxRSS / 1024), 'MB');
