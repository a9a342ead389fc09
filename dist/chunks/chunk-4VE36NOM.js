import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
var n=new Set;function a(e){return n.add(e),()=>n.delete(e)}function l(){for(let e of[...n].reverse()){n.delete(e);try{e()}catch{}}}var u=50;function d(){return new Promise(e=>setImmediate(e))}function p(e=u){let t=performance.now();return()=>{let r=performance.now();return r-t<e?!1:(t=r,!0)}}var o=[];function f(e){o.push(e)}function c(e){let t=o.length===0?"contracts left as they were":`already written in full before the signal: ${o.join(", ")}; other contracts left as they were`;return`toolgate: interrupted by ${e}; servers stopped, temporary files removed, ${t}
`}var s=!1,i;function g(){if(s)return;s=!0;for(let[t,r]of[["SIGINT",130],["SIGTERM",143]])process.on(t,()=>{i||(i=t,l(),process.stderr.write(c(t)),process.exit(r))});let e=!1;process.on("beforeExit",()=>{e||(e=!0,setImmediate(()=>{}))})}function m(e){if(e===process.pid)return!0;try{return process.kill(e,0),!0}catch(t){return t.code==="EPERM"}}export{a,l as b,d as c,p as d,f as e,g as f,m as g};
