/**
 * The end of a run whose stdout cannot be written (a full disk, a closed terminal): one log line naming the failure,
 * timestamped off a terminal or JSON as every other, then exit 75. A module and a build entry of its own
 * (dist/failed-stdout.js) so that the launcher, which answers `--version` before the bundle loads, ends the same
 * way as a command without loading the logger on the start-up of every `--version`: only when a write failed.
 */
import type { ExitCode } from '../base/errors.js';
import { systemClock } from '../base/clock.js';
import { type LogFormat, logFormatOf } from '../io/output/log-formats.js';
import { createLogger } from '../io/output/logger.js';

/** Exit 75, a failed write (decided here, before the error table is loaded). */
const exitFailedWrite: ExitCode = 75;

/** Says the failure in the run's log format (`--log-format`, else B2BCTL_LOG_FORMAT, else text) and exits 75. */
export function endOnFailedStdout(error: NodeJS.ErrnoException, logFormat?: LogFormat): never {
  const log = createLogger({
    stderr: process.stderr,
    isStderrTTY: process.stderr.isTTY === true,
    clock: systemClock,
    format: logFormat ?? logFormatOf(process.env.B2BCTL_LOG_FORMAT) ?? 'text',
    quiet: false,
    verbose: false,
  });
  log.error(
    `error: cannot write to stdout (${error.code ?? error.message}): what was printed is incomplete; make room or write elsewhere, then run the command again.`,
  );
  process.exit(exitFailedWrite);
}
