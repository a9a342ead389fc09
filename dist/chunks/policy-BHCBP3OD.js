import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
import{a,b,c,d,e,f}from"./chunk-W7JCIKVM.js";import"./chunk-AGAGWKGS.js";import"./chunk-LMMTLW75.js";import"./chunk-TZCCJSDE.js";import"./chunk-ETYLW7QE.js";import"./chunk-QIINOQUB.js";import"./chunk-MVBPBZQZ.js";import"./chunk-LR6XZ5CS.js";import"./chunk-AKADY3CY.js";import"./chunk-RLG55I22.js";export{a as DEFAULT_RUNTIME,f as adHocPolicy,d as checkContractPaths,e as parsePolicy,b as policyFromText,c as policyInputs};
