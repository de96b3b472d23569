import type { IOStreams, Prompter } from '../context.js';
import type { ExitCode } from '../base/errors.js';
import type { LogFormat } from '../io/output/log-formats.js';
import { closedOutputExitCode, isClosedOutputClaimed, isFailedWriteClaimed } from '../io/output/closed-output.js';
import { isStopSignal, signalExitCodes, stopSignals } from '../base/stop-signals.js';
import { Interruptions } from './interruptions.js';
import { runProgram } from './run-program.js';

// Decided before any command runs (the rest come from runProgram).
const exitOk: ExitCode = 0;

/** Runs b2bctl with process argv and streams: the process's side of runProgram (signals, EPIPE, the exit code). */
async function main(): Promise<void> {
  // stdin and stderr are built on first use: Node makes each a stream only when asked (a pipe's loads net), and
  // help, the most common short run, never reads stdin nor writes stderr.
  const io: IOStreams = {
    stdout: process.stdout,
    get stderr() {
      return process.stderr;
    },
    get stdin() {
      return process.stdin;
    },
    isStdoutTTY: process.stdout.isTTY === true,
    get isStderrTTY() {
      return process.stderr.isTTY === true;
    },
    get isStdinTTY() {
      return process.stdin.isTTY === true;
    },
  };
  // A reader that stops early (`| head`) closes the pipe: that is not an error, just the end (unless the command
  // writing says what it wrote first: orders poll).
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    // Said by the command itself (a bulk run's summary: its closing line comes after, with the exit code).
    if (isFailedWriteClaimed(process.stdout)) return;
    // Decided at once (a module imported now would answer after more writes had failed): a tiny module, loaded up front.
    if (error.code === 'EPIPE' && isClosedOutputClaimed(process.stdout)) return;
    if (error.code === 'EPIPE') process.exit(closedOutputExitCode(process.stdout) ?? process.exitCode ?? exitOk);
    // Any other failure to write the data (a full disk, a closed terminal): a failed write, exit 75, said once.
    if (stdoutFailed) return;
    stdoutFailed = error;
    // Loaded only now: the logger is not needed by --help and --version, which never reach it otherwise.
    void import('./failed-stdout.js').then(({ endOnFailedStdout }) => endOnFailedStdout(error, logFormat));
  });
  const interrupt = interruptOnSignals();
  process.exitCode = await runProgram(
    process.argv,
    io,
    process.env,
    async (globals) => {
      logFormat = globals.logFormat;
      // Loaded here, not at the top: `--help` and `--version` need none of it.
      const { createContext } = await import('../context.js');
      return createContext({
        io,
        env: process.env,
        globals,
        interrupt,
        loadPrompter: (streams) => loadPrompter(streams, interrupt, globals.color),
      });
    },
    // Said by the closing line already: a second Ctrl-C while the connections close ends with this code, not 130.
    (code) => (decidedExitCode = code),
    () => stdoutFailed || undefined,
  );
  endOnceClosed();
}

/**
 * The command has said its exit code; the process ends once its connections and files are closed. After the last
 * 'exit' listener Node tears itself down (a quarter of a second and more on a busy machine) with the signal handlers
 * already gone: a SIGTERM then ended it with 143 though its last line said `exit 0`, and a scheduler's timeout
 * recorded a killed job whose log says it succeeded. Ended from an 'exit' listener by process.exit instead (the
 * path every other end takes), the handlers stay until the process is gone, and the code is the one stated.
 * Listeners added after this one run first, as they would have.
 */
function endOnceClosed(): void {
  const end = (code: number) => {
    const listeners = process.listeners('exit');
    for (const later of listeners.slice(listeners.indexOf(end) + 1)) later(code);
    process.exit(code);
  };
  process.on('exit', end);
}

/** The terminal prompter, imported only when a command asks (login without --password-stdin): @inquirer/prompts is heavy. */
async function loadPrompter(io: IOStreams, interrupt: AbortSignal, color: boolean): Promise<Prompter> {
  // The prompts colour their question with node:util's styleText, which reads NO_COLOR: --no-color says it for them
  // (this process only; the prompts take no colour setting of their own).
  if (!color) process.env.NO_COLOR = '1';
  const { inquirerPrompter } = await import('../io/prompter.js');
  return inquirerPrompter(io, interrupt);
}

/** Set once stdout has failed, to its error: the later writes' errors say nothing more. */
let stdoutFailed: NodeJS.ErrnoException | false = false;
/** The log format the command line asked for, once parsed: the stdout failure's line is a log line as the rest. */
let logFormat: LogFormat | undefined;
/** The command's exit code once it is known, before the process has finished closing. */
let decidedExitCode: number | undefined;

/** The first stop signal asks the command to stop cleanly; a second one ends the process at once. */
function interruptOnSignals(): AbortSignal {
  const controller = new AbortController();
  const interruptions = new Interruptions(() => performance.now());
  const onSignal = (signal: NodeJS.Signals) => {
    const received = interruptions.receive();
    if (received === 'repeat') return;
    if (received === 'second') endAtOnce(signal, onSignal);
    // Ctrl-C typed at a terminal is echoed as ^C where the cursor stands, at the start of the line after the last
    // one printed: taken off, so the line that says the command stopped is not "^CSandbox stopped.". A terminal in
    // raw mode (a prompt is asking) echoes nothing and the signal came from elsewhere: the question's line stays.
    const echoed = !(process.stdin.isTTY && process.stdin.isRaw);
    if (signal === 'SIGINT' && process.stderr.isTTY && echoed) process.stderr.write('\r\u001B[K');
    controller.abort(signal);
  };
  for (const signal of stopSignals) process.on(signal, onSignal);
  // Those that came while the bundle loaded, held by the launcher (bin/b2bctl.js): taken now, as one interruption.
  for (const signal of takeHeldSignals()) onSignal(signal);
  // b2bctl owns these signals. conf's atomic writes (atomically → when-exit) add a handler that
  // re-raises the signal to end the process, which our handler then took for a second Ctrl-C: a
  // bulk run died at once with exit 130 instead of finishing its requests and exiting 75.
  process.on('newListener', (event: string | symbol, listener: (...args: unknown[]) => void) => {
    if (isStopSignal(event) && listener !== onSignal) queueMicrotask(() => process.off(event, listener));
  });
  return controller.signal;
}

/** The signals the launcher held until now, and its holding ended; none when b2bctl was started without it. */
function takeHeldSignals(): NodeJS.Signals[] {
  const take = (process as unknown as Record<symbol, unknown>)[Symbol.for('b2bctl.heldSignals')];
  return typeof take === 'function' ? (take as () => NodeJS.Signals[])() : [];
}

/**
 * Ends the process now, whatever it is waiting for. process.exit() is not enough: it waits for libuv's
 * worker threads, and one blocked in open() or read() (a FIFO nobody writes to, a stuck device) never
 * returns. The 'exit' listeners (the profile lock, the spooled copy of stdin) run first, then the
 * signal is raised again with its default action, which ends the process as the shell expects (129, 130, 143).
 */
function endAtOnce(signal: NodeJS.Signals, handler: (signal: NodeJS.Signals) => void): never {
  // The command had ended and said its exit code: the process was only closing its connections.
  if (decidedExitCode !== undefined) process.exit(decidedExitCode);
  const code = isStopSignal(signal) ? signalExitCodes[signal] : signalExitCodes.SIGTERM;
  process.exitCode = code;
  process.emit('exit', code);
  process.removeAllListeners('exit');
  for (const stopSignal of stopSignals) process.off(stopSignal, handler);
  process.kill(process.pid, signal);
  // Not reached once the default action has run; a platform without it still exits.
  process.exit(code);
}

await main();
