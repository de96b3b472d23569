#!/usr/bin/env node
// Thin launcher: everything lives in the bundle that `npm run build` writes to dist/. `--version` alone is
// answered here, so scripts that probe for b2bctl pay for nothing else.
import module from 'node:module';
import { isSupportedNode, supportedNodeWords } from './supported-node.js';

// Said in one line before anything loads, instead of a TypeError from an API an older Node lacks.
if (!isSupportedNode(process.versions.node)) {
  process.stderr.write(
    logLine(
      `error: b2bctl needs Node.js ${supportedNodeWords()}; this is Node.js ${process.versions.node}. ` +
        'Install a supported Node, or use the single-file b2bctl, which needs no Node.',
    ),
  );
  // 69, "unavailable": what b2bctl needs to run is missing (the exit codes of docs/output.md and docs/cron.md).
  process.exit(69);
}

const [flag, ...rest] = process.argv.slice(2);
if ((flag === '--version' || flag === '-V') && rest.length === 0) {
  // A stdout that cannot be written (a full disk): the bundle's own line and 75, a failed write, as for every
  // command, from the one module that says it, loaded only then: a --version that prints pays nothing for it.
  process.stdout.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(0);
    import('../dist/failed-stdout.js').then(({ endOnFailedStdout }) => endOnFailedStdout(error));
  });
  // Read with require: an ES import of node:fs would build its facade (and the stream stack) on every start.
  process.stdout.write(`${versionLine()}\n`);
} else {
  holdEarlySignals();
  // Peak memory of a long run: V8's optimising tier for WebAssembly (undici's HTTP parser) held ~20-40 MB more at
  // the peak of a million-row push (docs/decisions/0011). Set here, once, before anything is compiled; help needs
  // no HTTP and skips loading node:v8; a node flag of the user's own about it wins.
  const help = flag === undefined || flag === 'help' || process.argv.includes('--help') || process.argv.includes('-h');
  if (!help && !process.execArgv.some((option) => option.includes('liftoff')))
    module
      .createRequire(import.meta.url)('node:v8')
      .setFlagsFromString('--liftoff-only');
  // --verbose shows stack traces: make them point into src/*.ts through dist's source maps. Enabled before the
  // bundle loads (only files loaded afterwards are mapped), and only then, since parsing maps costs start-up.
  if (process.argv.includes('--verbose')) process.setSourceMapsEnabled(true);
  // Node's own compile cache speeds every later start-up; kept in a folder of the user's own, never the shared /tmp.
  // Loaded here, not at the top: --version pays nothing for it.
  else (await import('./private-compile-cache.js')).enablePrivateCompileCache();
  quietSqliteNotice();
  // The whole run is in this import (the bundle's top level awaits the command): what fails here may be a module
  // missing from a dist/ replaced while the command ran, not a clone never built.
  await import('../dist/cli.js').catch((error) => stopIfGone(error) ?? stopIfNotBuilt(error, 'cli.js'));
}

/**
 * Loading the bundle takes a moment (most of a second on a busy machine), and until src/cli/main.ts has installed
 * its handlers a SIGINT, SIGTERM or SIGHUP met none: the process ended at once, exit 143 and no line, where a scheduler
 * stopping a job it had just started expects 75 and the line that says so. Until then the signals are held here,
 * and main.ts takes them over as if they came as it starts (`Symbol.for('b2bctl.heldSignals')` on process).
 */
function holdEarlySignals() {
  const held = [];
  const hold = (signal) => held.push(signal);
  // The stop signals of src/base/stop-signals.ts (this launcher loads none of the bundle before it needs to).
  const stopSignals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const signal of stopSignals) process.on(signal, hold);
  process[Symbol.for('b2bctl.heldSignals')] = () => {
    for (const signal of stopSignals) process.off(signal, hold);
    return held;
  };
}

/** What --version prints: built into the single file (scripts/build-binary.mjs), else in dist/version.json. */
function versionLine() {
  // oxlint-disable-next-line no-undef -- defined by esbuild in the single file only
  if (typeof B2BCTL_VERSION_LINE === 'string') return B2BCTL_VERSION_LINE;
  try {
    return module.createRequire(import.meta.url)('../dist/version.json').line;
  } catch (error) {
    return stopIfNotBuilt(error, 'version.json');
  }
}

/**
 * A module of dist/ other than cli.js gone after the command started: `npm install -g` of another build, or an
 * uninstall, replaced dist/ under it (src/cli/bundle-gone.ts says it for a failure the command itself meets; this for
 * one met after it, such as while it closes). One line, exit 75, so a service manager starts it again.
 */
function stopIfGone(error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || typeof error.url !== 'string') return undefined;
  const dist = new URL('../dist/', import.meta.url).href;
  if (!error.url.startsWith(dist) || error.url === `${dist}cli.js`) return undefined;
  const gone = `dist/${error.url.slice(dist.length)}`;
  process.stderr.write(logLine(`error: b2bctl was upgraded or removed while running (${gone} is gone); restart it.`));
  process.exit(75);
}

/** A clone where `npm install` ran but no build yet (npm builds only when packing): one line saying what to run. */
function stopIfNotBuilt(error, file) {
  // The file itself missing, not a module it imports ("… imported from …/dist/cli.js" names it too).
  if (
    !/MODULE_NOT_FOUND/.test(error?.code) ||
    !new RegExp(`^Cannot find module '[^']*dist[\\\\/]${file}'`).test(String(error.message))
  )
    throw error;
  const folder = module
    .createRequire(import.meta.url)('node:url')
    .fileURLToPath(new URL('..', import.meta.url));
  process.stderr.write(logLine(`error: b2bctl is not built in ${folder}: run npm run build there, then try again.`));
  process.exit(69);
}

/**
 * An error line said before the bundle (and its logger) loads, written as the logger writes it (src/io/output/
 * logger.ts): off a terminal with its ISO-8601 time first, so a cron log that holds only this line still says when;
 * bare with `plain`, one object with `json` (--log-format, else B2BCTL_LOG_FORMAT).
 */
function logLine(message) {
  const argv = process.argv;
  const flagAt = argv.indexOf('--log-format');
  const format =
    (flagAt >= 0 ? argv[flagAt + 1] : argv.find((word) => word.startsWith('--log-format='))?.slice(13)) ??
    process.env.B2BCTL_LOG_FORMAT;
  const time = new Date().toISOString();
  if (format === 'json')
    return `${JSON.stringify({ time, level: 'error', message: message.replace(/^error: /, '') })}\n`;
  return format === 'plain' || process.stderr.isTTY ? `${message}\n` : `${time} ${message}\n`;
}

/**
 * Node 22 says on stderr that node:sqlite (the webhook inbox) is experimental: a note for developers, not for
 * b2bctl's users, whose stderr is the command's. Node's printer of warnings is wrapped in a filter that drops that
 * one warning and prints every other as before (docs/decisions/0017-node-sqlite.md); Node 24 and later print none to drop.
 */
function quietSqliteNotice() {
  for (const printer of process.listeners('warning')) {
    process.off('warning', printer);
    process.on('warning', (warning) => {
      if (!isSqliteNotice(warning)) printer(warning);
    });
  }
}

function isSqliteNotice(warning) {
  return warning?.name === 'ExperimentalWarning' && String(warning.message).startsWith('SQLite is an experimental');
}
