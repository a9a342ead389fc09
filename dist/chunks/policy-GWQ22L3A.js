import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
import{c as a,d as b,e as c,f as d,g as e,h as f}from"./chunk-ZFDLLC7M.js";import"./chunk-UMXBUM7X.js";import"./chunk-VU73I7Q3.js";import"./chunk-AIT66CJB.js";import"./chunk-BVPOQIYL.js";import"./chunk-KDWNMVW3.js";import"./chunk-QIINOQUB.js";import"./chunk-LR6XZ5CS.js";import"./chunk-EN7C5MTO.js";import"./chunk-A6K4AT7K.js";import"./chunk-4VE36NOM.js";import"./chunk-OUL4A72N.js";import"./chunk-RLG55I22.js";export{a as DEFAULT_RUNTIME,f as adHocPolicy,d as checkContractPaths,e as parsePolicy,b as policyFromText,c as policyInputs};
