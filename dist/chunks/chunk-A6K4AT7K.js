import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
import{lstatSync as u}from"node:fs";import{dirname as p,join as a,resolve as s,sep as c}from"node:path";function f(o,t){if(o===t)return!0;let r=t.endsWith(c)?t:t+c;return o.startsWith(r)}function d(o,t){let r=s(o);for(let n=r;;){try{return u(a(n,".git")),n}catch{}let i=p(n);if(i===n)break;n=i}let e=process.cwd();return f(r,e)||t!==void 0&&f(s(t),e)?e:r}export{f as a,d as b};
