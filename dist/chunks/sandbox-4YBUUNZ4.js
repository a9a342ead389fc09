import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
import{a,b,c,d,e,f,g,h,i,j}from"./chunk-RNCEL34B.js";import"./chunk-A6K4AT7K.js";import"./chunk-RLG55I22.js";export{g as MARKER_NAME,f as SandboxRefusal,c as abandonSandboxProbe,i as findMarked,j as killMarked,h as newMarker,d as resetSandboxSupport,a as sandboxSupport,b as sandboxSupportAsync,e as sandboxedCommand};
