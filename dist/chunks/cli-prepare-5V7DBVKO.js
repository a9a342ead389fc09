import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
import{a,b,c}from"./chunk-LPFQ5TVS.js";import"./chunk-4HBKACPD.js";import"./chunk-UMXBUM7X.js";import"./chunk-AIT66CJB.js";import"./chunk-HJ33O5N5.js";import"./chunk-EN7C5MTO.js";import"./chunk-A6K4AT7K.js";import"./chunk-OUL4A72N.js";import"./chunk-RLG55I22.js";export{a as discardEarly,c as policyFrom,b as prepareRun};
