/**
 * Tests that need a program `npm install` does not bring (zsh, fish, util-linux's `script`, openssl, a proxy, a
 * database…) skip with the reason in their title when the program is missing, so `npm test` passes on any machine
 * where `npm install` works; `.ci/run` installs the programs, so CI runs those tests. Use:
 *
 *   const zsh = requireTools('zsh');
 *   describe.skipIf(zsh.missing)(`zsh completion${zsh.note}`, () => { … });
 *   // where zsh is absent: "zsh completion (skipped: zsh is not installed here; .ci/run installs it)"
 *
 * (vitest's own skipIf and a template-literal title, which the lint rules read as a test), and
 * requireThat(condition, reason) for a need that is not a program on the PATH (root, a mount namespace).
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** How to tell a program works as the tests use it, when being on the PATH is not enough. */
const probes: Record<string, string[]> = {
  // BSD's `script` (macOS) takes other flags than util-linux's, which the terminal tests run.
  script: ['-qfec', 'true', '/dev/null'],
};

/** The Debian package that brings a program, when its name differs (for the skip reason). */
const packages: Record<string, string> = { script: 'bsdutils', taskset: 'util-linux', unshare: 'util-linux' };

/** A need of some tests: whether it is met, and the note their titles carry when it is not. */
export interface Requirement {
  /** True when the tests must skip: give it to `describe.skipIf` / `it.skipIf`. */
  readonly missing: boolean;
  /** Why the tests skip (empty when nothing is missing). */
  readonly reason: string;
  /** Appended to the title: ` (skipped: reason)` when missing, else empty. */
  readonly note: string;
}

/** Whether `program` is an executable file in one of the folders of `path`. */
export function onPath(program: string, path = process.env.PATH ?? ''): boolean {
  return path
    .split(delimiter)
    .filter((folder) => folder !== '')
    .some((folder) => {
      try {
        accessSync(join(folder, program), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
}

function works(program: string): boolean {
  if (!onPath(program)) return false;
  const probe = probes[program];
  return probe === undefined || spawnSync(program, probe, { stdio: 'ignore', timeout: 10_000 }).status === 0;
}

/** Tests that run these programs: skipped, saying which are missing and that .ci/run installs them. */
export function requireTools(...programs: string[]): Requirement {
  const missing = programs.filter((program) => !works(program));
  const named = missing.map((program) => (packages[program] ? `${program} (${packages[program]})` : program));
  const verb = missing.length === 1 ? 'is' : 'are';
  return requireThat(
    missing.length === 0,
    `${named.join(' and ')} ${verb} not installed here; .ci/run installs ${missing.length === 1 ? 'it' : 'them'}`,
  );
}

/** Tests that need `available` to hold, skipped with `reason` in their title when it does not. */
export function requireThat(available: boolean, reason: string): Requirement {
  // The default reporter folds a skipped file into one line; this puts the reason in the run's output too.
  // oxlint-disable-next-line no-console -- vitest shows it under the file's name
  if (!available) console.warn(`skipping tests: ${reason}`);
  return available
    ? { missing: false, reason: '', note: '' }
    : { missing: true, reason, note: ` (skipped: ${reason})` };
}
