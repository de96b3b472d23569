/**
 * The built CLI on a real pseudo-terminal: `script` gives it a terminal of a set size, and a headless xterm renders
 * the bytes it wrote, so a test asserts what an operator sees (lines, cursor, wrapping, the window's title), never
 * substrings of the byte stream.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import xterm from '@xterm/headless';
import { cliPath, compileCache, sleep } from './cli.js';
import { requireTools } from './external-tools.js';
import { temporaryFolder } from './temporary.js';

/** `script`, which makes the pseudo-terminal: a test that needs it skips with this reason when it is missing. */
export const pseudoTerminal = requireTools('script');

/** What the terminal shows once the command has ended. */
export interface TerminalScreen {
  /** Every line, the scrollback's too; a row the terminal wrapped is joined back to the line it continues. */
  lines: string[];
  /** The indexes in `lines` of the lines too wide for the terminal, which it wrapped. */
  wrapped: number[];
  cursorHidden: boolean;
  wraparound: boolean;
  /** Every window title the output set. */
  titles: string[];
  /** How many cells are drawn in a colour other than the terminal's own (foreground or background). */
  colouredCells: number;
}

/** While the command runs: its PID, keys to type, and a wait for what it prints (never to assert on). */
export interface RunningOnTerminal {
  pid: number;
  type(keys: string): void;
  /** Resolves once the output so far holds `text`; fails if the command ends without printing it. */
  printed(text: string): Promise<void>;
  /** The screen as the output so far renders it: what the operator sees at this moment. */
  screen(): Promise<TerminalScreen>;
}

export interface TerminalOptions {
  cwd?: string;
  /** Beside PATH, HOME and TERM=xterm, the only variables the command gets. */
  env?: Record<string, string>;
  columns?: number;
  rows?: number;
  /** A file (a FIFO the test writes to) as the command's stdin, instead of the terminal. */
  stdin?: string;
  /** Runs once the command has started: to type at a prompt or to signal it. */
  during?: (running: RunningOnTerminal) => Promise<void>;
}

/**
 * Whether the terminal of the process `pid` is in raw mode (no line editing), as it is while a prompt asks: how a
 * test knows that a key it typed was read (the mode a command sets on it changes) without waiting for a time.
 */
export function inRawMode(pid: number): boolean {
  const settings = execFileSync('stty', ['-F', `/proc/${pid}/fd/0`, '-a'], { encoding: 'utf8' });
  return /(^|\s)-icanon(\s|$)/.test(settings);
}

/** Runs `b2bctl ARGS` (the built CLI) on a terminal of `columns` × `rows`; its exit code and the rendered screen. */
export async function onTerminal(
  args: readonly string[],
  options: TerminalOptions = {},
): Promise<{ code: number | null; screen: TerminalScreen; written: string }> {
  const { columns = 160, rows = 50 } = options;
  const folder = temporaryFolder('b2bctl-terminal-');
  const pidFile = join(folder, 'pid');
  const quoted = [process.execPath, cliPath, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
  // The shell writes its PID, then becomes b2bctl: a signal sent to that PID reaches b2bctl itself, not `script`.
  const input = options.stdin === undefined ? '' : ` < '${options.stdin.replaceAll("'", "'\\''")}'`;
  const command = `stty cols ${columns} rows ${rows}; echo $$ > '${pidFile}'; exec ${quoted}${input}`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: options.cwd,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      // The test file's own (temporary-setup.ts), where what b2bctl leaves behind is seen; Node's compile cache in
      // the one folder every spawned b2bctl shares, not there.
      TMPDIR: tmpdir(),
      NODE_COMPILE_CACHE: compileCache,
      TERM: 'xterm',
      ...options.env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
  let ended = false;
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      ended = true;
      resolve(code);
    }),
  );
  if (options.during) {
    while (!existsSync(pidFile) || readFileSync(pidFile, 'utf8').trim() === '') await sleep(10);
    await options.during({
      pid: Number(readFileSync(pidFile, 'utf8').trim()),
      type: (keys) => child.stdin.write(keys),
      printed: async (text) => {
        while (!Buffer.concat(chunks).toString('utf8').includes(text)) {
          if (ended) throw new Error(`the command ended without printing ${JSON.stringify(text)}`);
          await sleep(10);
        }
      },
      screen: () => rendered(Buffer.concat(chunks), columns, rows),
    });
  }
  const code = await exited;
  child.stdin.end();
  // The bytes too: what a terminal that renders no control sequence (TERM=dumb) shows as they are.
  const written = Buffer.concat(chunks);
  return { code, screen: await rendered(written, columns, rows), written: written.toString('utf8') };
}

async function rendered(bytes: Buffer, columns: number, rows: number): Promise<TerminalScreen> {
  const terminal = new xterm.Terminal({ cols: columns, rows, allowProposedApi: true, scrollback: 10_000 });
  const titles: string[] = [];
  terminal.onTitleChange((title) => titles.push(title));
  // `script` hands over the terminal's output with \n turned into \r\n, as a real terminal gets it.
  await new Promise<void>((resolve) => terminal.write(bytes, resolve));
  const buffer = terminal.buffer.active;
  const lines: string[] = [];
  const wrapped = new Set<number>();
  let colouredCells = 0;
  for (let index = 0; index < buffer.length; index++) {
    const line = buffer.getLine(index);
    const width = line?.length ?? 0;
    for (let column = 0; column < width; column++) {
      const cell = line?.getCell(column);
      if (cell !== undefined && (!cell.isFgDefault() || !cell.isBgDefault())) colouredCells++;
    }
    const text = line?.translateToString(true) ?? '';
    if (line?.isWrapped && lines.length > 0) {
      lines[lines.length - 1] += text;
      wrapped.add(lines.length - 1);
    } else lines.push(text);
  }
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  // The cursor's visibility is not in xterm's public API; its core service holds it.
  const core = (terminal as unknown as Record<string, { coreService: { isCursorHidden: boolean } }>)['_core'] as {
    coreService: { isCursorHidden: boolean };
  };
  const screen = {
    lines,
    wrapped: [...wrapped],
    cursorHidden: core.coreService.isCursorHidden,
    wraparound: terminal.modes.wraparoundMode,
    titles,
    colouredCells,
  };
  terminal.dispose();
  return screen;
}
