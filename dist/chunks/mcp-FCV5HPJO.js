import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
import{a,b,c,d,e,f}from"./chunk-W353EFAW.js";import"./chunk-CQWKMYSR.js";import"./chunk-B4SR2J5Q.js";import"./chunk-GRFSU4CR.js";import"./chunk-HJ33O5N5.js";import"./chunk-WZJOGKN4.js";import"./chunk-EN7C5MTO.js";import"./chunk-A6K4AT7K.js";import"./chunk-LJSSSP7K.js";import"./chunk-RLG55I22.js";export{e as HttpFallbackTransport,c as blockedHosts,f as openHttpServer,a as snapshotMcp,b as snapshotOverTransport,d as startStdioServer};
