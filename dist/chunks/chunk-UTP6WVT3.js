import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
import{a as i,c as s,f as a}from"./chunk-LMMTLW75.js";import{b as e}from"./chunk-MVBPBZQZ.js";import{join as y,resolve as p}from"node:path";async function g(o){let r=p(o),n;try{n=(await a(r,i.policy,"the policy file",{display:o,fix:{directory:`Pass the policy file, not its directory: --config ${y(o,"toolgate.yml")} (in the Action, the \`config\` input).`,size:`A policy file is limited to ${s(i.policy)} (README, "Security"); one needs a few KB: check that --config (the Action's \`config\` input) names toolgate.yml.`}})).toString("utf8")}catch(t){if(t instanceof e)throw t;let c=t.code;throw new e(c==="ENOENT"?"policy file not found":`cannot read policy file: ${t.message}`,{file:o},c==="ENOENT"?`Create ${r} (README, "Use it on your server"), pass --config PATH, or audit a server directly: \`toolgate audit -- node server.js\`.`:void 0)}let{policyFromText:l}=await import("./policy-BHCBP3OD.js");return l(n,o)}export{g as a};
