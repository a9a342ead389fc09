import { filesystemContract, githubContract } from '../test/export/support.ts';
const f = await filesystemContract(); console.log(f.tools.length, f.source);
const g = await githubContract(); console.log(g.tools.map(t=>t.name+':'+t.safetyClass).join(' '));
