import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
var o=["error","warning","notice","never"];function t(e,n){if(n==="never")return!1;let r={error:0,warning:1,notice:2};return r[e]<=r[n]}function i(e){return e.failOn??(e.exact?"warning":"error")}function s(e){let n={error:0,warning:0,notice:0};for(let r of e)n[r.level]++;return n}export{o as a,t as b,i as c,s as d};
