/**
 * A bulk run reading stdin keeps a private copy of it in $TMPDIR (every customer's password), removed when the run
 * ends. A run killed outright (SIGKILL: the OOM killer, a CI timeout) removes nothing: the copy's folder is named with
 * the run's PID (`b2bctl-stdin-<pid>-<random>`), as the verdict spools are, and the next run removes those of runs
 * that are gone, whether it reads stdin or a file. A live run's, another user's, and one whose name holds no PID are
 * left alone: another user's 0700 folder in a shared /tmp cannot be read to be removed, and the EACCES ended every
 * bulk run of this user while that user's killed run's copy was there.
 */
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { repoRoot } from '../../support/sandbox.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();
const [header, first] = readFileSync(join(repoRoot, 'samples', 'customers.csv'), 'utf8').split('\n');
const oneCustomer = `${header}\n${first}\n`;
/** The platform's address is known once it listens (beforeAll). */
const env = () => ({ B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' });

/** The id of a process that has ended: a run killed with SIGKILL. */
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid as number;

/** A copy of stdin as a run left it in TMPDIR: the folder, with the passwords in it. */
function leftCopy(name: string, owner?: number): string {
  const folder = join(tmpdir(), name);
  mkdirSync(folder, { mode: 0o700 });
  writeFileSync(join(folder, 'stdin'), oneCustomer, { mode: 0o600 });
  if (owner !== undefined) chownSync(folder, owner, owner);
  return name;
}

// What each test left (a live run's, one without a PID, another user's) goes with it: TMPDIR is checked after the file.
afterEach(() => {
  for (const name of stdinCopies()) rmSync(join(tmpdir(), name), { recursive: true, force: true });
});

function stdinCopies(): string[] {
  return readdirSync(tmpdir()).filter((name) => name.startsWith('b2bctl-stdin-'));
}

/** The platform creates every customer; the copies of stdin in TMPDIR at each create. */
function copiesSeenWhileSending(): string[][] {
  const seen: string[][] = [];
  platform.routes['POST /v1/customer'] = (_request, _body, response) => {
    seen.push(stdinCopies());
    response.writeHead(201, { 'content-type': 'application/json' }).end('{"id":1}');
  };
  return seen;
}

describe("a killed run's copy of stdin", () => {
  it('is named with the PID, and removed by the next run that reads stdin; a live run’s and an old name are kept', async () => {
    const dead = leftCopy(`b2bctl-stdin-${deadPid()}-AbCdEf`);
    const live = leftCopy(`b2bctl-stdin-${process.ppid}-GhIjKl`);
    const unnamed = leftCopy('b2bctl-stdin-ilDabr');
    const seen = copiesSeenWhileSending();
    const result = await runCommandLine(['customer', 'create', '-', '--report', 'stdin.report.csv'], {
      configDir: freshConfigDir(),
      cwd: freshWorkDir(),
      env: env(),
      stdin: oneCustomer,
    });
    expect(result.code).toBe(0);
    expect(platform.received).toEqual(['POST /v1/customer']);
    // While it sends: its own copy, named with its PID, and the dead run's already gone.
    expect(seen).toHaveLength(1);
    const own = (seen[0] as string[]).filter((name) => ![live, unnamed].includes(name));
    expect(own).toEqual([expect.stringMatching(new RegExp(`^b2bctl-stdin-${process.pid}-\\w+$`))]);
    expect(stdinCopies().toSorted()).toEqual([live, unnamed].toSorted());
    expect(existsSync(join(tmpdir(), dead))).toBe(false);
  });

  it('is removed by the next bulk run that reads a file', async () => {
    const dead = leftCopy(`b2bctl-stdin-${deadPid()}-MnOpQr`);
    copiesSeenWhileSending();
    const folder = freshWorkDir();
    writeFileSync(join(folder, 'people.csv'), oneCustomer);
    const result = await runCommandLine(['customer', 'create', 'people.csv'], {
      configDir: freshConfigDir(),
      cwd: folder,
      env: env(),
    });
    expect(result.code).toBe(0);
    expect(stdinCopies()).not.toContain(dead);
  });

  it.skipIf(process.getuid?.() !== 0)(
    "another user's, in a shared TMPDIR, is theirs: left alone, and the run goes on",
    async () => {
      const theirs = leftCopy(`b2bctl-stdin-${deadPid()}-StUvWx`, 65534);
      copiesSeenWhileSending();
      const result = await runCommandLine(['customer', 'create', '-'], {
        configDir: freshConfigDir(),
        cwd: freshWorkDir(),
        env: env(),
        stdin: oneCustomer,
      });
      expect(result.code).toBe(0);
      expect(stdinCopies()).toContain(theirs);
    },
  );
});
