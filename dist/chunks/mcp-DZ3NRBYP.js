import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
import{a,b,c,d,e,f}from"./chunk-BEP75M3A.js";import"./chunk-PC446N6K.js";import"./chunk-GRFSU4CR.js";import"./chunk-KDWNMVW3.js";import"./chunk-QNBK7VLA.js";import"./chunk-HJ33O5N5.js";import"./chunk-EN7C5MTO.js";import"./chunk-A6K4AT7K.js";import"./chunk-4VE36NOM.js";import"./chunk-OUL4A72N.js";import"./chunk-RLG55I22.js";export{e as HttpFallbackTransport,c as blockedHosts,f as openHttpServer,a as snapshotMcp,b as snapshotOverTransport,d as startStdioServer};
