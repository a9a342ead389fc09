import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
import{a as b,b as c}from"./chunk-DIW4PEGF.js";import"./chunk-OYPPWBCH.js";import"./chunk-TIVT2INY.js";import{h as a}from"./chunk-B4SR2J5Q.js";import"./chunk-HJ33O5N5.js";import"./chunk-UMXBUM7X.js";import"./chunk-BH5J3733.js";import"./chunk-QIINOQUB.js";import"./chunk-EN7C5MTO.js";import"./chunk-A6K4AT7K.js";import"./chunk-LJSSSP7K.js";import"./chunk-RLG55I22.js";export{a as discardEarly,c as policyFrom,b as prepareRun};
