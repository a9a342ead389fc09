import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
import{a,b,c,d}from"./chunk-RPAKU2NZ.js";import"./chunk-UTP6WVT3.js";import"./chunk-XZT5ZVPW.js";import"./chunk-VDAJQQNF.js";import"./chunk-Z4PS7CF2.js";import"./chunk-LMMTLW75.js";import"./chunk-MVBPBZQZ.js";import"./chunk-HJ33O5N5.js";import"./chunk-AKADY3CY.js";import"./chunk-RLG55I22.js";export{b as discardEarlyIfStarted,d as policyFrom,a as prepareEarly,c as prepareRun};
