import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
function i(e){let o=e.file;return e.line!==void 0&&(o+=`:${e.line}`),e.line!==void 0&&e.column!==void 0&&(o+=`:${e.column}`),e.pointer!==void 0&&e.pointer!==""&&(o+=` (at ${e.pointer})`),o}var s=class extends Error{constructor(r,t,d,n){super(r);this.location=t;this.fix=d;this.ruleId=n}location;fix;ruleId;name="ConfigError";exitCode=2;others=[];othersOmitted=0;describe(){return`${this.headline()}${this.alsoLines().map(r=>`
  also: ${r}`).join("")}`}headline(){return`${this.location?`${i(this.location)}: `:""}${this.message}${this.fix?`
  fix: ${this.fix}`:""}`}alsoLines(){let r=this.others.map(t=>`${t.location?`${i(t.location)}: `:""}${t.message}`);return this.othersOmitted>0&&r.push(`\u2026 and ${this.othersOmitted} more`),r}},a=class extends Error{constructor(r,t,d,n){super(r,n);this.reason=t;this.stderrTail=d}reason;stderrTail;name="SourceError";exitCode=3;escaped;sandbox;unauthorized;protectedResource};export{i as a,s as b,a as c};
