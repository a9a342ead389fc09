import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
import{a,b,c,d,e}from"./chunk-LZA3LT63.js";import"./chunk-TZCCJSDE.js";import"./chunk-R6C5TOUQ.js";import"./chunk-QIINOQUB.js";import"./chunk-MVBPBZQZ.js";import"./chunk-LR6XZ5CS.js";import"./chunk-AKADY3CY.js";import"./chunk-RLG55I22.js";export{e as assertNoRunnerSecrets,a as diffPolicies,c as isRunnerSecretName,b as judgingPolicy,d as runnerSecretsInEnv};
