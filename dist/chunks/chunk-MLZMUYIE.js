import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
function d(e){let n=e.file;return e.line!==void 0&&(n+=`:${e.line}`),e.line!==void 0&&e.column!==void 0&&(n+=`:${e.column}`),e.pointer!==void 0&&e.pointer!==""&&(n+=` (at ${e.pointer})`),n}var l=class extends Error{constructor(r,t,s,a){super(r);this.location=t;this.fix=s;this.ruleId=a}location;fix;ruleId;name="ConfigError";exitCode=2;others=[];othersOmitted=0;describe(){return`${this.headline()}${this.alsoLines().map(r=>`
  also: ${r}`).join("")}`}headline(){return`${this.location?`${d(this.location)}: `:""}${this.message}${this.fix?`
  fix: ${this.fix}`:""}`}alsoLines(){let r=this.others.map(t=>`${t.location?`${d(t.location)}: `:""}${t.message}`);return this.othersOmitted>0&&r.push(`\u2026 and ${this.othersOmitted} more`),r}},p=class extends Error{constructor(r,t,s,a){super(r,a);this.reason=t;this.stderrTail=s}reason;stderrTail;name="SourceError";exitCode=3};var o=new Set;function x(e){return o.add(e),()=>o.delete(e)}function u(){for(let e of[...o].reverse()){o.delete(e);try{e()}catch{}}}var c=!1;function $(){if(!c){c=!0;for(let[e,n]of[["SIGINT",130],["SIGTERM",143]])process.once(e,()=>{u(),process.stderr.write(`toolgate: interrupted by ${e}; servers stopped, temporary files removed, contracts left as they were
`),process.exit(n)})}}var f=typeof process<"u"&&process.env.TOOLGATE_TIMING==="1",i=[];function m(e){f&&(i.length===0&&process.once("exit",g),i.push([e,performance.now()]))}function g(){m("exit");let e=0,n=i.map(([r,t])=>{let s=`toolgate-timing ${t.toFixed(1).padStart(8)} ms  +${(t-e).toFixed(1).padStart(7)} ms  ${r}`;return e=t,s});process.stderr.write(`${n.join(`
`)}
toolgate-timing-json ${JSON.stringify(Object.fromEntries(i.map(([r,t])=>[r,Math.round(t*10)/10])))}
`)}export{d as a,l as b,p as c,x as d,$ as e,m as f};
