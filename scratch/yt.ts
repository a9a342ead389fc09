import { toYaml } from '/work/main/src/export/yaml.ts';
import { parse } from 'yaml';
const v = { ver: "1.0", pol: `permit (x == Tool::"a'b")`, apiVersion: 'x/v1', yes: 'on', list: ['a', 'yes', 'a\u2028b', 'emoji😀', ''], nested: [{ name: 'n', tools: ['x'] }, { a: [], b: {} }], n: 3, b: true };
const y = toYaml(v);
console.log(y);
console.log(JSON.stringify(parse(y)) === JSON.stringify(v), JSON.stringify(parse(y, { version: '1.1' })) === JSON.stringify(v));
