import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
import{a,b,c,d,e}from"./chunk-UEQC7UVY.js";import"./chunk-BVPOQIYL.js";import"./chunk-KDWNMVW3.js";import"./chunk-QIINOQUB.js";import"./chunk-LR6XZ5CS.js";import"./chunk-EN7C5MTO.js";import"./chunk-A6K4AT7K.js";import"./chunk-4VE36NOM.js";import"./chunk-OUL4A72N.js";import"./chunk-RLG55I22.js";export{e as assertNoRunnerSecrets,a as diffPolicies,c as isRunnerSecretName,b as judgingPolicy,d as runnerSecretsInEnv};
