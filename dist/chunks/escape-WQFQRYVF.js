import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
import{a,b,c,d,e,f,g,h,i,j,k,l,m,n}from"./chunk-WFN5C5HG.js";import"./chunk-RLG55I22.js";export{b as MAX_BLOCK,a as MAX_INLINE,c as TRUNCATION_MARK_MAX,l as breakRunnerCommands,g as escapeMarkdownCode,f as escapeMarkdownInline,j as escapeTerminal,k as escapeTerminalInline,h as escapeWorkflowCommandData,i as escapeWorkflowCommandProperty,m as guardLogOutput,n as jsonSafe,e as neutralizeMentions,d as sanitizeText};
