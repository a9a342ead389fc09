import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
import{a,b,c,d,e,f}from"./chunk-JMTHA3KP.js";import"./chunk-GRFSU4CR.js";import"./chunk-EI3F2OPD.js";import"./chunk-3T6P75LD.js";import"./chunk-R6C5TOUQ.js";import"./chunk-MVBPBZQZ.js";import"./chunk-RDJZJYIS.js";import"./chunk-OZNBDPJK.js";import"./chunk-NEGGUQ65.js";import"./chunk-A6K4AT7K.js";import"./chunk-4VE36NOM.js";import"./chunk-HJ33O5N5.js";import"./chunk-AKADY3CY.js";import"./chunk-RLG55I22.js";export{e as HttpFallbackTransport,c as blockedHosts,f as openHttpServer,a as snapshotMcp,b as snapshotOverTransport,d as startStdioServer};
