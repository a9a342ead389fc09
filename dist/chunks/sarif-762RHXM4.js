import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
import{a,b,c,d,e,f}from"./chunk-I5NLQQ3B.js";import"./chunk-SHVPGXJI.js";import"./chunk-A25XUDJH.js";import"./chunk-LR6XZ5CS.js";import"./chunk-RLG55I22.js";export{a as DEFAULT_INFORMATION_URI,c as FINGERPRINT_KEY,b as SARIF_SCHEMA_URI,e as buildSarifLog,d as sarifLevel,f as toRelativeUri};
