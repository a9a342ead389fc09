// Preloaded into every measured Node process (`node --import ./bench/lib/peak-rss.mjs ...`):
// at exit, writes the process's peak resident set size (getrusage ru_maxrss, the kernel's
// high-water mark, so no sampling can miss a peak) as JSON to file descriptor 3, which
// bench/run.mjs opens as an extra pipe. It measures that Node process only, not the MCP server
// it spawns. Does nothing when fd 3 is not open (e.g. run by hand).
import { writeSync } from 'node:fs';

process.on('exit', () => {
  try {
    writeSync(3, `${JSON.stringify({ maxRssKB: process.resourceUsage().maxRSS })}\n`);
  } catch {
    // fd 3 not open: not run by the bench.
  }
});
