#!/usr/bin/env node
import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
import{a as c}from"./chunks/chunk-XZT5ZVPW.js";import{a as d}from"./chunks/chunk-VDAJQQNF.js";import"./chunks/chunk-Z4PS7CF2.js";import{b as n}from"./chunks/chunk-MVBPBZQZ.js";import{b as a,f as s}from"./chunks/chunk-4VE36NOM.js";import{a as o}from"./chunks/chunk-HJ33O5N5.js";import"./chunks/chunk-RLG55I22.js";o("modules loaded");s();for(let e of[process.stdout,process.stderr])e.on("error",r=>{if(r.code!=="EPIPE")throw r;a(),process.exit(process.exitCode??0)});var f=m(),t=f===void 0?void 0:c(process.argv.slice(2)),i=t?await import("./chunks/prepare-77PVLPRN.js"):void 0,p=t?(await i.prepareEarly(t,f)).failed:void 0;if(p instanceof n)process.exitCode=d.usage,await i.discardEarlyIfStarted(),(await import("./chunks/config-error-output-W46QPTKQ.js")).writeConfigError(p);else{let{main:e}=await import("./chunks/program-P3YAEOW5.js");o("program loaded"),e(process.argv).then(async r=>{process.exitCode=r,await i?.discardEarlyIfStarted()})}function m(){try{return process.cwd()}catch{return}}
