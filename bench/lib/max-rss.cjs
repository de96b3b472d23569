// Preloaded into a measured process (NODE_OPTIONS=--require ...): prints its peak RSS on exit, to a file
// named by B2BCTL_BENCH_RSS_FILE, so a benchmark reads the true peak without an external tool.
const { writeFileSync } = require('node:fs');
process.on('exit', () => {
  if (process.env.B2BCTL_BENCH_RSS_FILE)
    writeFileSync(process.env.B2BCTL_BENCH_RSS_FILE, String(process.resourceUsage().maxRSS * 1024));
});
