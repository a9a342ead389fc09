import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
import{a,b,c,d,e,f}from"./chunk-3AJS7IUT.js";import"./chunk-DLTTL4VJ.js";import"./chunk-7S2QUG23.js";import"./chunk-GRFSU4CR.js";import"./chunk-ETYLW7QE.js";import"./chunk-MVBPBZQZ.js";import"./chunk-V5J33RYD.js";import"./chunk-OZNBDPJK.js";import"./chunk-4VE36NOM.js";import"./chunk-HJ33O5N5.js";import"./chunk-AKADY3CY.js";import"./chunk-RNCEL34B.js";import"./chunk-A6K4AT7K.js";import"./chunk-RLG55I22.js";export{e as HttpFallbackTransport,c as blockedHosts,f as openHttpServer,a as snapshotMcp,b as snapshotOverTransport,d as startStdioServer};
