import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
import{d as a,e as b,f as c,g as d,h as e}from"./chunk-V5J33RYD.js";import"./chunk-OZNBDPJK.js";import"./chunk-4VE36NOM.js";import"./chunk-HJ33O5N5.js";import"./chunk-AKADY3CY.js";import"./chunk-RNCEL34B.js";import"./chunk-A6K4AT7K.js";import"./chunk-RLG55I22.js";export{e as discardEarly,b as launchStdio,a as startContained,c as startEarly,d as takeEarly};
