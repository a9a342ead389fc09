import { createRequire as __tgCreateRequire } from 'node:module';
import { fileURLToPath as __tgFileURLToPath } from 'node:url';
import { dirname as __tgDirname } from 'node:path';
const require = __tgCreateRequire(import.meta.url);
const __filename = __tgFileURLToPath(import.meta.url);
const __dirname = __tgDirname(__filename);
var e=class extends Error{constructor(r,a,d,o){super(r,o);this.reason=a;this.stderrTail=d}reason;stderrTail;name="SourceError";exitCode=3;escaped;sandbox;unauthorized;protectedResource};export{e as a};
