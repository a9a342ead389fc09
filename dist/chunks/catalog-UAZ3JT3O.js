import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
import{a,b,c,d}from"./chunk-LR6XZ5CS.js";import"./chunk-RLG55I22.js";export{a as RULES,d as SCANNING,c as isRuleId,b as ruleById};
