#!/usr/bin/env node
import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
import{a as p}from"./chunks/chunk-W3K26IUB.js";import{b as t,f as a}from"./chunks/chunk-4VE36NOM.js";import{a as o}from"./chunks/chunk-HJ33O5N5.js";import"./chunks/chunk-RLG55I22.js";o("modules loaded");a();for(let r of[process.stdout,process.stderr])r.on("error",s=>{if(s.code!=="EPIPE")throw s;t(),process.exit(process.exitCode??0)});var e=p(process.argv.slice(2)),i=e?await import("./chunks/prepare-GFJIBV5Y.js"):void 0;e&&await i.prepareEarly(e,process.cwd());var{main:d}=await import("./chunks/program-HSCBTJDY.js");o("program loaded");d(process.argv).then(async r=>{await i?.discardEarlyIfStarted(),process.exitCode=r});
