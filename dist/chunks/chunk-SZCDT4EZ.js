import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
import{p as s}from"./chunk-IMJIXCZB.js";var m="https://github.com/toolgate/toolgate",x="https://json.schemastore.org/sarif-2.1.0.json",v="toolgate/v2";function d(i){return i==="notice"?"note":i}function U(i,n,r){let l=r.informationUri??m,p=r.helpUri??(e=>`${l}/blob/main/docs/rules.md#${e}`),a=new Map;n.forEach((e,t)=>a.set(e.id,t));let f=n.map(e=>{let t=p(e.id);return{id:e.id,name:R(e.id),shortDescription:{text:e.title},fullDescription:{text:e.rationale},help:{text:`${e.fix}

Source: ${e.source}`,markdown:`**How to fix:** ${e.fix}

**Source:** ${e.source}`},...t!==void 0?{helpUri:t}:{},defaultConfiguration:{level:d(e.level)},properties:{tags:["toolgate",...e.reviewable?["reviewable"]:[]]}}}),g=i.map(e=>{let t=a.get(e.ruleId);if(t===void 0)throw new Error(`finding for unknown rule id ${JSON.stringify(e.ruleId)}`);let u=e.location?.file??r.fallbackFile,c={ruleId:e.ruleId,ruleIndex:t,level:d(e.level),message:{text:s(e.message)},partialFingerprints:{[v]:e.fingerprint},properties:{source:e.source,...e.tool!==void 0?{tool:s(e.tool,200)}:{},pointer:e.pointer,fix:e.fix}};if(u!==void 0){let o=e.location?.file!==void 0?e.location.line:void 0;c.locations=[{physicalLocation:{artifactLocation:{uri:I(u),uriBaseId:"%SRCROOT%"},...o!==void 0&&o>=1?{region:{startLine:o}}:{}}}]}return c});return{$schema:x,version:"2.1.0",runs:[{tool:{driver:{name:"toolgate",informationUri:l,version:r.version,.../^\d+\.\d+\.\d+/.test(r.version)?{semanticVersion:r.version}:{},rules:f}},results:g,columnKind:"utf16CodeUnits"}]}}function I(i){return i.replace(/\\/g,"/").replace(/^\.\//,"").split("/").map(n=>encodeURIComponent(n)).join("/")}function R(i){return i.split(/[^A-Za-z0-9]+/).filter(Boolean).map(n=>n[0].toUpperCase()+n.slice(1)).join("")}export{m as a,x as b,v as c,d,U as e,I as f};
