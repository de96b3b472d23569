// `--help` or `-h` on any benchmark prints the comment at the top of its file (what it measures, its baseline, its
// usage) and exits, instead of starting a run that can take minutes.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function exitWithUsageOnHelp(moduleUrl, argv = process.argv) {
  if (!argv.includes('--help') && !argv.includes('-h')) return;
  const lines = readFileSync(fileURLToPath(moduleUrl), 'utf8').split('\n');
  const header = [];
  for (const line of lines) {
    if (!line.startsWith('//')) break;
    header.push(line.replace(/^\/\/ ?/, ''));
  }
  process.stdout.write(`${header.join('\n')}\n`);
  process.exit(0);
}
