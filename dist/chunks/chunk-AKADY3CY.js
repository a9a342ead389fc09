import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
var e={sandbox:"on",network:"loopback",writable:[]},n=/^[a-z0-9][a-z0-9._-]*$/,r={startupMs:9e4,requestMs:15e3,totalMs:18e4},o={maxPages:100,maxBytes:32*1024*1024};function i(t){return`.toolgate/${t}.surface.json`}export{e as a,n as b,r as c,o as d,i as e};
