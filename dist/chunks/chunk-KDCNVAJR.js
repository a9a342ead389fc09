import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
function u(e){let r=e.file;return e.line!==void 0&&(r+=`:${e.line}`),e.line!==void 0&&e.column!==void 0&&(r+=`:${e.column}`),e.pointer!==void 0&&e.pointer!==""&&(r+=` (at ${e.pointer})`),r}var d=class extends Error{constructor(t,n,s,a){super(t);this.location=n;this.fix=s;this.ruleId=a}location;fix;ruleId;name="ConfigError";exitCode=2;describe(){return`${this.location?`${u(this.location)}: `:""}${this.message}${this.fix?`
  fix: ${this.fix}`:""}`}},p=class extends Error{constructor(t,n,s,a){super(t,a);this.reason=n;this.stderrTail=s}reason;stderrTail;name="SourceError";exitCode=3};var o=new Set;function y(e){return o.add(e),()=>o.delete(e)}function l(){for(let e of[...o].reverse()){o.delete(e);try{e()}catch{}}}var c=!1;function v(){if(!c){c=!0;for(let[e,r]of[["SIGINT",130],["SIGTERM",143]])process.once(e,()=>{l(),process.stderr.write(`toolgate: interrupted by ${e}; servers stopped, temporary files removed, contracts left as they were
`),process.exit(r)})}}var f=typeof process<"u"&&process.env.TOOLGATE_TIMING==="1",i=[];function m(e){f&&(i.length===0&&process.once("exit",x),i.push([e,performance.now()]))}function x(){m("exit");let e=0,r=i.map(([t,n])=>{let s=`toolgate-timing ${n.toFixed(1).padStart(8)} ms  +${(n-e).toFixed(1).padStart(7)} ms  ${t}`;return e=n,s});process.stderr.write(`${r.join(`
`)}
toolgate-timing-json ${JSON.stringify(Object.fromEntries(i.map(([t,n])=>[t,Math.round(n*10)/10])))}
`)}export{u as a,d as b,p as c,y as d,v as e,m as f};
