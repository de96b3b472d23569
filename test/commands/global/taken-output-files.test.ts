/**
 * A `--report` or `--errors` path in a shared folder (an export share, /tmp) that another user made first, as an
 * empty file or a FIFO they read from: reused, it would hand them customers' documents and passwords. It is refused
 * before anything is sent, exit 2, saying why; a file of one's own that no one else may write is still used.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshWorkDir, useSandboxPerFile } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { requireThat } from '../../support/external-tools.js';
import { requestCounts, seedDirectory } from '../../support/sandbox.js';

let sandbox: RunningSandbox;
let configDir: string;

useSandboxPerFile({ login: true }, (ready) => ({ sandbox, configDir } = ready));

const root = requireThat(process.getuid?.() === 0, 'giving a file to another user needs root');
const nobody = 65534;
const customers = [
  'documentType,document,name,username,phone,password,paysIcms,customerRegistrationAddress.zipcode,customerRegistrationAddress.number',
  'cpf,52998224725,Ana,a9@ex.com.br,11999990000,Senha#A1x,false,01310-100,5',
  '',
].join('\n');

/** A working folder with the inputs, and a sticky folder every user may write to, as /tmp is. */
function workspace(): { dir: string; shared: string } {
  const dir = freshWorkDir();
  writeFileSync(join(dir, 'clientes.csv'), customers);
  copyFileSync(join(seedDirectory, 'stock.csv'), join(dir, 'stock.csv'));
  const shared = join(dir, 'shared');
  mkdirSync(shared);
  chmodSync(shared, 0o1777);
  return { dir, shared };
}

const advice = (flag: string) =>
  `nothing was sent. Choose a path of your own, in a folder other users cannot write to, with ${flag} or the outputDir setting.\n`;

describe('a report or errors path that exists and is not a private file of this user', () => {
  it.skipIf(root.missing)(
    `an empty file another user made first, open to all: refused, exit 2, nothing sent${root.note}`,
    async () => {
      const { dir, shared } = workspace();
      const planted = join(shared, 'e.csv');
      writeFileSync(planted, '');
      chownSync(planted, nobody, nobody);
      chmodSync(planted, 0o666);
      const result = await runCommandLine(['customer', 'create', 'clientes.csv', '--errors', planted, '-q'], {
        configDir,
        cwd: dir,
      });
      expect(result.stderr).toMatch(
        new RegExp(
          `^error: Cannot write the errors file ${planted}: it belongs to \\S+ \\(uid ${nobody}\\), not to root: its owner could read what b2bctl writes in it; `,
        ),
      );
      expect(result.stderr.endsWith(advice('--errors'))).toBe(true);
      expect(result.stderr.split('\n')).toHaveLength(2);
      expect(result.code).toBe(2);
      expect(await requestCounts(sandbox)).toEqual({});
      expect(readFileSync(planted, 'utf8')).toBe('');
    },
  );

  // A mistyped `--report /dev/sdb` in a root cron job wrote the report over the start of the disk. The node made
  // here is of a major number with no driver (240, reserved for local use): even opened, nothing could be written.
  it.skipIf(root.missing)(
    `a block device at --report or --errors: refused before it is opened, exit 2, one line, nothing sent${root.note}`,
    async () => {
      const { dir, shared } = workspace();
      const disk = join(shared, 'sdb');
      execFileSync('mknod', [disk, 'b', '240', '0']);
      for (const flag of ['--report', '--errors']) {
        const result = await runCommandLine(['stock', 'push', 'stock.csv', flag, disk, '-q'], { configDir, cwd: dir });
        const what = flag === '--report' ? 'report' : 'errors file';
        expect(result.stderr).toBe(
          `error: Cannot write the ${what} ${disk}: it is a block device (a disk or a partition), not a file: the rows would be written over the start of it; ${advice(flag)}`,
        );
        expect(result.code).toBe(2);
        expect(result.stdout).toBe('');
      }
      expect(await requestCounts(sandbox)).toEqual({});
      expect(statSync(disk).isBlockDevice()).toBe(true);
    },
  );

  it('a FIFO at --report: refused at once, exit 2, nothing sent', async () => {
    const { dir, shared } = workspace();
    const fifo = join(shared, 'r.csv');
    execFileSync('mkfifo', ['-m', '666', fifo]);
    const result = await runCommandLine(['stock', 'push', 'stock.csv', '--report', fifo, '-q'], {
      configDir,
      cwd: dir,
    });
    expect(result.stderr).toBe(
      `error: Cannot write the report ${fifo}: it is a named pipe (FIFO), not a file: whoever reads it would get the rows; ${advice('--report')}`,
    );
    expect(result.code).toBe(2);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it.skipIf(root.missing)(
    `a resumed report that another user now owns: refused naming --resume and the copy to make, nothing sent${root.note}`,
    async () => {
      const { dir, shared } = workspace();
      const report = join(shared, 'r.csv');
      const earlier = await runCommandLine(['stock', 'push', 'stock.csv', '--report', report, '-q'], {
        configDir,
        cwd: dir,
      });
      expect(earlier.code).toBe(0);
      chownSync(report, nobody, nobody);
      chmodSync(report, 0o666);
      const before = await requestCounts(sandbox);
      const result = await runCommandLine(['stock', 'push', 'stock.csv', '--resume', report, '-q'], {
        configDir,
        cwd: dir,
      });
      const [line] = result.stderr.split('\n');
      expect(line).toMatch(
        new RegExp(`^error: Cannot write the report ${report}: it belongs to \\S+ \\(uid ${nobody}\\), not to root: `),
      );
      expect(line).toContain(
        `; nothing was sent. Copy it and its run record ${join(shared, 'r.meta.json')} into a folder of your own that other users cannot write to, and --resume the copy.`,
      );
      expect(result.code).toBe(2);
      expect(await requestCounts(sandbox)).toEqual(before);
    },
  );

  // A link in a shared folder at the report or its run record, pointing at another run's of the same input, would
  // choose which rows count as done and which --map, route and profile come back.
  it('--resume of a report, or beside a run record, that is a symbolic link: refused before either is read, exit 2, nothing sent', async () => {
    const { dir, shared } = workspace();
    const report = join(dir, 'r.csv');
    const earlier = await runCommandLine(['stock', 'push', 'stock.csv', '--report', report, '-q'], {
      configDir,
      cwd: dir,
    });
    expect(earlier.code).toBe(0);
    const linkedReport = join(shared, 'linked.csv');
    symlinkSync(report, linkedReport);
    symlinkSync(join(dir, 'r.meta.json'), join(shared, 'linked.meta.json'));
    const copied = join(shared, 'copied.csv');
    copyFileSync(report, copied);
    const linkedRecord = join(shared, 'copied.meta.json');
    symlinkSync(join(dir, 'r.meta.json'), linkedRecord);
    const before = await requestCounts(sandbox);
    const resumeAdvice =
      'which b2bctl never follows; nothing was sent. Resume from the report itself, the one the interrupted run wrote, beside its run record.\n';
    for (const [resumed, which] of [
      [linkedReport, 'the report'],
      [copied, `its run record ${linkedRecord}`],
    ] as const) {
      const result = await runCommandLine(['stock', 'push', 'stock.csv', '--resume', resumed, '-q'], {
        configDir,
        cwd: dir,
      });
      expect(result.stderr).toBe(`error: Cannot resume from ${resumed}: ${which} is a symbolic link, ${resumeAdvice}`);
      expect(result.code).toBe(2);
    }
    expect(await requestCounts(sandbox)).toEqual(before);
  });

  it('an empty file of ours that others may write: refused; once chmod 600, used', async () => {
    const { dir } = workspace();
    const report = join(dir, 'r.csv');
    writeFileSync(report, '');
    chmodSync(report, 0o666);
    const refused = await runCommandLine(['stock', 'push', 'stock.csv', '--report', report, '-q'], {
      configDir,
      cwd: dir,
    });
    expect(refused.stderr).toBe(
      `error: Cannot write the report ${report}: its group and others may write it (mode 0666): they could change what b2bctl writes in it; ${advice('--report')}`,
    );
    expect(refused.code).toBe(2);
    expect(await requestCounts(sandbox)).toEqual({});
    chmodSync(report, 0o600);
    const used = await runCommandLine(['stock', 'push', 'stock.csv', '--report', report, '-q'], {
      configDir,
      cwd: dir,
    });
    expect(used.code).toBe(0);
    expect(readFileSync(report, 'utf8').split('\n').length).toBeGreaterThan(50);
  });

  it('an empty file of ours that others may read (touch makes it 0644): closed to them (0600) before a row goes in', async () => {
    const { dir } = workspace();
    const errors = join(dir, 'e.csv');
    writeFileSync(errors, '');
    chmodSync(errors, 0o644);
    // One customer valid, one with a wrong CPF check digit: the run sends one and writes the other, password and all.
    const rows = customers.split('\n');
    writeFileSync(
      join(dir, 'bad.csv'),
      [...rows.slice(0, 2), (rows[1] as string).replace('52998224725', '52998224724').replace('a9@', 'b9@'), ''].join(
        '\n',
      ),
    );
    const run = await runCommandLine(['customer', 'create', 'bad.csv', '--errors', errors, '--skip-invalid', '-q'], {
      configDir,
      cwd: dir,
    });
    expect(run.code).toBe(1);
    expect(statSync(errors).mode & 0o777).toBe(0o600);
    expect(readFileSync(errors, 'utf8')).toContain('Senha#A1x');
  });

  it('--report NAME.csv beside a NAME.meta.json the run did not make: refused, the file kept, nothing sent', async () => {
    const { dir } = workspace();
    const report = join(dir, 'noite.csv');
    const record = join(dir, 'noite.meta.json');
    writeFileSync(record, '{"mine":true}');
    const refused = await runCommandLine(['stock', 'push', 'stock.csv', '--report', report, '-q'], {
      configDir,
      cwd: dir,
    });
    expect(refused.stderr).toContain(
      `error: --report ${report}: ${record} is already there, and this run would replace it with its own run record; nothing was sent.`,
    );
    expect(refused.code).toBe(2);
    expect(readFileSync(record, 'utf8')).toBe('{"mine":true}');
    expect(await requestCounts(sandbox)).toEqual({});
  });
});
