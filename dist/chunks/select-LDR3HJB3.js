import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
import{a,b,c,d,e}from"./chunk-H5UEGVYE.js";import"./chunk-U2O3AOI6.js";import"./chunk-TZCCJSDE.js";import"./chunk-ETYLW7QE.js";import"./chunk-QIINOQUB.js";import"./chunk-MVBPBZQZ.js";import"./chunk-LR6XZ5CS.js";import"./chunk-V5J33RYD.js";import"./chunk-OZNBDPJK.js";import"./chunk-4VE36NOM.js";import"./chunk-HJ33O5N5.js";import"./chunk-AKADY3CY.js";import"./chunk-RNCEL34B.js";import"./chunk-A6K4AT7K.js";import"./chunk-RLG55I22.js";export{c as assertSandboxAsRequired,d as readySources,a as selectSources,e as startFirstServer,b as startsCommand};
