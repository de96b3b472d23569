// Preloaded into a measured process (NODE_OPTIONS=--require ...): writes the CPU time it used (user and system,
// in microseconds) on exit to the file named by B2BCTL_BENCH_CPU_FILE. On a loaded machine CPU time varies far
// less than wall time, which waits for a core.
const { writeFileSync } = require('node:fs');
process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  if (process.env.B2BCTL_BENCH_CPU_FILE) writeFileSync(process.env.B2BCTL_BENCH_CPU_FILE, String(user + system));
});
