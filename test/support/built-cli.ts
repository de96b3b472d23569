import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { separateClosingLine } from './closing-line.js';

/** The launcher of the built CLI (run `npm run build` first). */
export const builtCli = join(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'), 'bin', 'b2bctl.js');

export interface BuiltCliResult {
  code: number | null;
  stdout: string;
  /** Less a bulk run's closing line, which is in `closingLine` (see closing-line.ts). */
  stderr: string;
  closingLine?: string;
}

const folders: string[] = [];

/** A temporary folder removed by `removeBuiltCliFolders()`. */
export function scratchFolder(prefix = 'b2bctl-safety-'): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  folders.push(folder);
  return folder;
}

export function removeBuiltCliFolders(): void {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
}

/**
 * Runs the built CLI as a process with pipes for stdio and only the environment given (plus PATH, HOME and a
 * fresh config folder unless B2BCTL_CONFIG_DIR is set), for what only a process shows: exit codes and stderr.
 */
export function runBuiltCli(
  args: readonly string[],
  options: { env?: Record<string, string>; cwd?: string; stdin?: string; node?: readonly string[] } = {},
): Promise<BuiltCliResult> {
  const child = spawn(process.execPath, [...(options.node ?? []), builtCli, ...args], {
    cwd: options.cwd ?? scratchFolder(),
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NO_COLOR: '1',
      B2BCTL_LOG_FORMAT: 'plain',
      B2BCTL_CONFIG_DIR: join(scratchFolder(), 'config'),
      ...options.env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end(options.stdin ?? '');
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolvePromise, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolvePromise(separateClosingLine({ code, stdout, stderr })));
  });
}
