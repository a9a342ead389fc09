import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
function c(e){let r=e.file;return e.line!==void 0&&(r+=`:${e.line}`),e.line!==void 0&&e.column!==void 0&&(r+=`:${e.column}`),e.pointer!==void 0&&e.pointer!==""&&(r+=` (at ${e.pointer})`),r}var u=class extends Error{constructor(t,n,s,l){super(t);this.location=n;this.fix=s;this.ruleId=l}location;fix;ruleId;name="ConfigError";exitCode=2;others=[];othersOmitted=0;describe(){return`${this.headline()}${this.alsoLines().map(t=>`
  also: ${t}`).join("")}`}headline(){return`${this.location?`${c(this.location)}: `:""}${this.message}${this.fix?`
  fix: ${this.fix}`:""}`}alsoLines(){let t=this.others.map(n=>`${n.location?`${c(n.location)}: `:""}${n.message}`);return this.othersOmitted>0&&t.push(`\u2026 and ${this.othersOmitted} more`),t}},p=class extends Error{constructor(t,n,s,l){super(t,l);this.reason=n;this.stderrTail=s}reason;stderrTail;name="SourceError";exitCode=3;escaped;sandbox};var o=new Set;function w(e){return o.add(e),()=>o.delete(e)}function g(){for(let e of[...o].reverse()){o.delete(e);try{e()}catch{}}}var x=50;function E(){return new Promise(e=>setImmediate(e))}function I(e=x){let r=performance.now();return()=>{let t=performance.now();return t-r<e?!1:(r=t,!0)}}var a=[];function L(e){a.push(e)}function h(e){let r=a.length===0?"contracts left as they were":`already written in full before the signal: ${a.join(", ")}; other contracts left as they were`;return`toolgate: interrupted by ${e}; servers stopped, temporary files removed, ${r}
`}var f=!1,m;function M(){if(f)return;f=!0;for(let[r,t]of[["SIGINT",130],["SIGTERM",143]])process.on(r,()=>{m||(m=r,g(),process.stderr.write(h(r)),process.exit(t))});let e=!1;process.on("beforeExit",()=>{e||(e=!0,setImmediate(()=>{}))})}function j(e){if(e===process.pid)return!0;try{return process.kill(e,0),!0}catch(r){return r.code==="EPERM"}}var d=typeof process<"u"?process.env.TOOLGATE_TIMING:void 0,y=d==="1"||d==="live",$=d==="live",i=[];function v(e){y&&(i.length===0&&process.once("exit",S),i.push([e,performance.now()]),$&&process.stderr.write(`toolgate-mark ${e}
`))}function S(){v("exit");let e=0,r=i.map(([t,n])=>{let s=`toolgate-timing ${n.toFixed(1).padStart(8)} ms  +${(n-e).toFixed(1).padStart(7)} ms  ${t}`;return e=n,s});process.stderr.write(`${r.join(`
`)}
toolgate-timing-json ${JSON.stringify(Object.fromEntries(i.map(([t,n])=>[t,Math.round(n*10)/10])))}
`)}export{c as a,u as b,p as c,w as d,g as e,E as f,I as g,L as h,M as i,j,v as k};
