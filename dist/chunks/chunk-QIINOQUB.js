import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
import{isAbsolute as i,relative as e}from"node:path";function s(n,t){if(!i(t))return t;let r=e(n,t);return r.startsWith("..")||i(r)?t:r.split("\\").join("/")}export{s as a};
