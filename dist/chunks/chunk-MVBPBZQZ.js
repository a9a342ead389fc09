import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
function t(e){let i=e.file;return e.line!==void 0&&(i+=`:${e.line}`),e.line!==void 0&&e.column!==void 0&&(i+=`:${e.column}`),e.pointer!==void 0&&e.pointer!==""&&(i+=` (at ${e.pointer})`),i}var o=class extends Error{constructor(n,r,s,a){super(n);this.location=r;this.fix=s;this.ruleId=a}location;fix;ruleId;name="ConfigError";exitCode=2;others=[];othersOmitted=0;describe(){return`${this.headline()}${this.alsoLines().map(n=>`
  also: ${n}`).join("")}`}headline(){return`${this.location?`${t(this.location)}: `:""}${this.message}${this.fix?`
  fix: ${this.fix}`:""}`}alsoLines(){let n=this.others.map(r=>`${r.location?`${t(r.location)}: `:""}${r.message}`);return this.othersOmitted>0&&n.push(`\u2026 and ${this.othersOmitted} more`),n}};export{t as a,o as b};
