import { parse } from '@marcbachmann/cel-js';
import { celString } from '../src/export/literals.ts';
for (const s of ['a', '"', '\\', "'", '\n', '\u2028', '😀', '$', '{', 'é', '\u0000', '\x7f']) {
  try { const v = parse(celString(s))({}); if (v !== s) console.log('diff', JSON.stringify(s), celString(s), JSON.stringify(v)); } catch (e) { console.log('err', JSON.stringify(s), celString(s), (e as Error).message.slice(0, 100)); }
}
