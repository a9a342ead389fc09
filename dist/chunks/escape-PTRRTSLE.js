import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
import{a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p}from"./chunk-IMJIXCZB.js";import"./chunk-RLG55I22.js";export{b as MAX_BLOCK,a as MAX_INLINE,c as TRUNCATION_MARK_MAX,n as breakRunnerCommands,i as escapeHtml,h as escapeMarkdownCode,g as escapeMarkdownInline,l as escapeTerminal,m as escapeTerminalInline,j as escapeWorkflowCommandData,k as escapeWorkflowCommandProperty,o as guardLogOutput,p as jsonSafe,f as neutralizeMentions,e as sanitizeText,d as truncate};
