import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
function u(e){let t=e.file;return e.line!==void 0&&(t+=`:${e.line}`),e.line!==void 0&&e.column!==void 0&&(t+=`:${e.column}`),e.pointer!==void 0&&e.pointer!==""&&(t+=` (at ${e.pointer})`),t}var c=class extends Error{constructor(r,n,s,l){super(r);this.location=n;this.fix=s;this.ruleId=l}location;fix;ruleId;name="ConfigError";exitCode=2;others=[];othersOmitted=0;describe(){return`${this.headline()}${this.alsoLines().map(r=>`
  also: ${r}`).join("")}`}headline(){return`${this.location?`${u(this.location)}: `:""}${this.message}${this.fix?`
  fix: ${this.fix}`:""}`}alsoLines(){let r=this.others.map(n=>`${n.location?`${u(n.location)}: `:""}${n.message}`);return this.othersOmitted>0&&r.push(`\u2026 and ${this.othersOmitted} more`),r}},p=class extends Error{constructor(r,n,s,l){super(r,l);this.reason=n;this.stderrTail=s}reason;stderrTail;name="SourceError";exitCode=3;escaped;sandbox};var o=new Set;function S(e){return o.add(e),()=>o.delete(e)}function g(){for(let e of[...o].reverse()){o.delete(e);try{e()}catch{}}}var x=50;function I(){return new Promise(e=>setImmediate(e))}function E(e=x){let t=performance.now();return()=>{let r=performance.now();return r-t<e?!1:(t=r,!0)}}var a=[];function L(e){a.push(e)}function h(e){let t=a.length===0?"contracts left as they were":`already written in full before the signal: ${a.join(", ")}; other contracts left as they were`;return`toolgate: interrupted by ${e}; servers stopped, temporary files removed, ${t}
`}var f=!1,m;function O(){if(f)return;f=!0;for(let[t,r]of[["SIGINT",130],["SIGTERM",143]])process.on(t,()=>{m||(m=t,g(),process.stderr.write(h(t)),process.exit(r))});let e=!1;process.on("beforeExit",()=>{e||(e=!0,setImmediate(()=>{}))})}var d=typeof process<"u"?process.env.TOOLGATE_TIMING:void 0,$=d==="1"||d==="live",y=d==="live",i=[];function v(e){$&&(i.length===0&&process.once("exit",w),i.push([e,performance.now()]),y&&process.stderr.write(`toolgate-mark ${e}
`))}function w(){v("exit");let e=0,t=i.map(([r,n])=>{let s=`toolgate-timing ${n.toFixed(1).padStart(8)} ms  +${(n-e).toFixed(1).padStart(7)} ms  ${r}`;return e=n,s});process.stderr.write(`${t.join(`
`)}
toolgate-timing-json ${JSON.stringify(Object.fromEntries(i.map(([r,n])=>[r,Math.round(n*10)/10])))}
`)}export{u as a,c as b,p as c,S as d,I as e,E as f,L as g,O as h,v as i};
