import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
var g="https://github.com/toolgate/toolgate",m="https://json.schemastore.org/sarif-2.1.0.json",x="toolgate/v1";function c(i){return i==="notice"?"note":i}function R(i,n,r){let s=r.informationUri??g,d=r.helpUri??(e=>`${s}/blob/main/docs/rules.md#${e}`),l=new Map;n.forEach((e,t)=>l.set(e.id,t));let p=n.map(e=>{let t=d(e.id);return{id:e.id,name:I(e.id),shortDescription:{text:e.title},fullDescription:{text:e.rationale},help:{text:`${e.fix}

Source: ${e.source}`,markdown:`**How to fix:** ${e.fix}

**Source:** ${e.source}`},...t!==void 0?{helpUri:t}:{},defaultConfiguration:{level:c(e.level)},properties:{tags:["toolgate",...e.reviewable?["reviewable"]:[]]}}}),f=i.map(e=>{let t=l.get(e.ruleId);if(t===void 0)throw new Error(`finding for unknown rule id ${JSON.stringify(e.ruleId)}`);let a=e.location?.file??r.fallbackFile,u={ruleId:e.ruleId,ruleIndex:t,level:c(e.level),message:{text:e.message},partialFingerprints:{[x]:e.fingerprint},properties:{source:e.source,...e.tool!==void 0?{tool:e.tool}:{},pointer:e.pointer,fix:e.fix}};if(a!==void 0){let o=e.location?.file!==void 0?e.location.line:void 0;u.locations=[{physicalLocation:{artifactLocation:{uri:v(a),uriBaseId:"%SRCROOT%"},...o!==void 0&&o>=1?{region:{startLine:o}}:{}}}]}return u});return{$schema:m,version:"2.1.0",runs:[{tool:{driver:{name:"toolgate",informationUri:s,version:r.version,.../^\d+\.\d+\.\d+/.test(r.version)?{semanticVersion:r.version}:{},rules:p}},results:f,columnKind:"utf16CodeUnits"}]}}function v(i){return i.replace(/\\/g,"/").replace(/^\.\//,"").split("/").map(n=>encodeURIComponent(n)).join("/")}function I(i){return i.split(/[^A-Za-z0-9]+/).filter(Boolean).map(n=>n[0].toUpperCase()+n.slice(1)).join("")}export{g as a,m as b,x as c,c as d,R as e,v as f};
