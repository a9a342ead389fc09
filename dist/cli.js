#!/usr/bin/env node
import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
import{a as p}from"./chunks/chunk-XZT5ZVPW.js";import{a as n}from"./chunks/chunk-VDAJQQNF.js";import"./chunks/chunk-Z4PS7CF2.js";import{b as s}from"./chunks/chunk-MVBPBZQZ.js";import{b as i,f as d}from"./chunks/chunk-4VE36NOM.js";import{a as e}from"./chunks/chunk-HJ33O5N5.js";import"./chunks/chunk-RLG55I22.js";e("modules loaded");d();for(let o of[process.stdout,process.stderr])o.on("error",r=>{if(r.code!=="EPIPE")throw r;i(),process.exit(process.exitCode??0)});var t=p(process.argv.slice(2)),a=t?await import("./chunks/prepare-GQR2MX5C.js"):void 0,c=t?(await a.prepareEarly(t,process.cwd())).failed:void 0;if(c instanceof s)await a.discardEarlyIfStarted(),(await import("./chunks/config-error-output-W46QPTKQ.js")).writeConfigError(c),process.exitCode=n.usage;else{let{main:o}=await import("./chunks/program-P3FECKXE.js");e("program loaded"),o(process.argv).then(async r=>{await a?.discardEarlyIfStarted(),process.exitCode=r})}
