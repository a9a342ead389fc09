import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
import{c as a,d as b,e as c,f as d,g as e,h as f}from"./chunk-OMW5NHTV.js";import"./chunk-T3P6H2KS.js";import"./chunk-UMXBUM7X.js";import"./chunk-BH5J3733.js";import"./chunk-BVPOQIYL.js";import"./chunk-WZJOGKN4.js";import"./chunk-QIINOQUB.js";import"./chunk-EN7C5MTO.js";import"./chunk-A6K4AT7K.js";import"./chunk-LJSSSP7K.js";import"./chunk-C52CVAV7.js";import"./chunk-RLG55I22.js";export{a as DEFAULT_RUNTIME,f as adHocPolicy,d as checkContractPaths,e as parsePolicy,b as policyFromText,c as policyInputs};
