import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
var s=/docs\/design\.md §\d+(?: \([^()§\n]*\))?(?:, §\d+(?: \([^()§\n]*\))?)*/g;function c(n){return`section-${n}`}function g(n,t){return n.replace(s,e=>e.replace(/(?:docs\/design\.md )?§(\d+)/g,(r,i)=>`[${r}](${t(Number(i))})`))}export{c as a,g as b};
