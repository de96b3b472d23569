/**
 * A large workbook is validated on a thread of its own (src/bulk/validate-thread.ts): the thread runs the verb again
 * and relays what it prints, asks and ends with, so a run there ends exactly as on the main thread. Each case runs
 * the same command line both ways, `input.workbookThreadMb` off and 0 (every workbook on the thread), and compares
 * the exit code, stdout, stderr and the prompts asked; the thread's own line under --verbose shows which way ran.
 */
import { copyFileSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InterruptedError } from '../../../src/base/errors.js';
import { validateOnThread } from '../../../src/bulk/validate-thread.js';
import { freshConfigDir } from '../../support/cli.js';
import { FakeClock } from '../../support/fake-clock.js';
import { type CommandLineOptions, runCommandLine } from '../../support/command-line.js';
import { repoRoot } from '../../support/sandbox.js';
import { testContext } from '../../support/test-context.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

afterAll(() => removeTemporaryFolders());

const fixture = (...path: string[]) => join(repoRoot, 'test', 'fixtures', ...path);

/** A folder with the workbook in it, and a config folder whose profile says where workbooks are validated. */
function workspace(...workbooks: string[]): { folder: string; configDir: string } {
  const folder = temporaryFolder('b2bctl-thread-');
  for (const workbook of workbooks) copyFileSync(workbook, join(folder, workbook.split('/').at(-1) as string));
  return { folder, configDir: freshConfigDir() };
}

/** The timing of the closing line, the one figure that differs from run to run. */
const untimed = (text: string) => text.replaceAll(/ in \d+\.\d s\./g, ' in N s.');

/** The command line run with every workbook on the main thread, then on the thread. */
async function bothWays(
  args: string[],
  options: Omit<CommandLineOptions, 'configDir'> & { folder: string; configDir: string; beforeRun?: () => void },
) {
  const { folder, beforeRun, ...rest } = options;
  const run = async (where: 'off' | '0') => {
    beforeRun?.();
    const set = await runCommandLine(['config', 'set', 'input.workbookThreadMb', where], rest);
    expect(set.code).toBe(0);
    // A clock that stands still: the checking progress a terminal gets after a second of wall-clock time would
    // otherwise come on a loaded machine in one run and not the other, and the two would differ by it.
    const result = await runCommandLine(args, { clock: new FakeClock(), ...rest, cwd: folder });
    return { ...result, stdout: untimed(result.stdout), stderr: untimed(result.stderr) };
  };
  return { here: await run('off'), there: await run('0') };
}

describe('stock validate of a workbook on its thread', () => {
  it.each([
    ['a workbook with problems, merged and hidden cells (.xlsx)', 'estoque-variado.xlsx'],
    ['the same saved as .ods', 'estoque-variado.ods'],
  ])('%s: the same problems, lines and exit code', async (_case, name) => {
    const { folder, configDir } = workspace(fixture('workbooks', name));
    for (const output of [[], ['-o', 'json']]) {
      const { here, there } = await bothWays(
        ['stock', 'validate', name, '--ignore-column', 'atualizado em', ...output],
        { folder, configDir },
      );
      expect(here.code).toBe(65);
      expect(here.stdout).toContain(name);
      expect(there).toEqual(here);
    }
  });

  it('a valid workbook of 3,000 rows, on a terminal: exit 0 and the same closing line', async () => {
    const { folder, configDir } = workspace(fixture('workbooks', 'estoque-3000.xlsx'));
    const { here, there } = await bothWays(['stock', 'validate', 'estoque-3000.xlsx'], {
      folder,
      configDir,
      tty: { stdout: true, stderr: true },
    });
    expect(here.code).toBe(0);
    expect(here.stderr).toContain('estoque-3000.xlsx: 3000 records, 3000 valid, 0 invalid (0 problems) in N s.');
    expect(there).toEqual(here);
  });

  it('a workbook cut short, and a sheet that is not there: the same one line and exit code', async () => {
    const { folder, configDir } = workspace(fixture('workbooks', 'estoque-variado.xlsx'));
    const whole = readFileSync(join(folder, 'estoque-variado.xlsx'));
    writeFileSync(join(folder, 'cortado.xlsx'), whole.subarray(0, whole.length - 200));
    const cut = await bothWays(['stock', 'validate', 'cortado.xlsx'], { folder, configDir });
    expect(cut.here.code).toBe(65);
    expect(cut.here.stderr).toContain('cortado.xlsx: cannot read the workbook');
    expect(cut.there).toEqual(cut.here);
    const sheet = await bothWays(['stock', 'validate', 'estoque-variado.xlsx', '--sheet', 'Preços'], {
      folder,
      configDir,
    });
    expect(sheet.here.code).not.toBe(0);
    expect(sheet.here.stderr).toContain('Preços');
    expect(sheet.there).toEqual(sheet.here);
  });

  it('a workbook piped on stdin: the same problems and lines, named stdin; a CSV on stdin stays on this thread', async () => {
    const { folder, configDir } = workspace(fixture('workbooks', 'estoque-variado.xlsx'));
    const workbook = readFileSync(join(folder, 'estoque-variado.xlsx'));
    const piped = await bothWays(['stock', 'validate', '-', '--ignore-column', 'atualizado em'], {
      folder,
      configDir,
      stdin: workbook,
    });
    expect(piped.here.code).toBe(65);
    expect(piped.here.stderr).toContain('stdin: 6 records, 4 valid, 2 invalid (2 problems) in N s.');
    expect(piped.there).toEqual(piped.here);
    const onThread = await runCommandLine(['stock', 'validate', '-', '--ignore-column', 'atualizado em', '--verbose'], {
      configDir,
      cwd: folder,
      stdin: workbook,
    });
    expect(onThread.stderr).toContain(
      'stdin: a workbook of 0.0 MB (input.workbookThreadMb or more), validated on a thread',
    );
    const csv = readFileSync(fixture('workbooks', 'estoque-3000.csv'));
    const text = await bothWays(['stock', 'validate', '-', '--verbose'], { folder, configDir, stdin: csv });
    expect(text.here.code).toBe(0);
    expect(text.there.stderr).not.toContain('thread of its own');
    expect(text.there.stderr).toContain('stdin: 3000 records, 3000 valid, 0 invalid (0 problems) in N s.');
  });

  it('says under --verbose that the thread validated it, and only when it did', async () => {
    const { folder, configDir } = workspace(fixture('workbooks', 'estoque-3000.xlsx'));
    const { here, there } = await bothWays(['stock', 'validate', 'estoque-3000.xlsx', '--verbose'], {
      folder,
      configDir,
    });
    const size = (statSync(fixture('workbooks', 'estoque-3000.xlsx')).size / 1_000_000).toFixed(1);
    const line = `estoque-3000.xlsx: a workbook of ${size} MB (input.workbookThreadMb or more), validated on a thread of its own with a heap of at most 128 MB`;
    expect(there.code).toBe(0);
    expect(there.stderr).toContain(line);
    expect(here.stderr).not.toContain('thread of its own');
  });

  it('a workbook under the size set stays on the main thread', async () => {
    const { folder, configDir } = workspace(fixture('workbooks', 'estoque-3000.xlsx'));
    await runCommandLine(['config', 'set', 'input.workbookThreadMb', '1'], { configDir });
    const result = await runCommandLine(['stock', 'validate', 'estoque-3000.xlsx', '--verbose'], {
      configDir,
      cwd: folder,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('thread of its own');
  });
});

describe('customer validate of a workbook on its thread', () => {
  it('asks at the terminal what the thread asks, and saves the map the answer makes', async () => {
    const { folder, configDir } = workspace(fixture('libreoffice', 'clientes-corrigido.xlsx'));
    const { here, there } = await bothWays(
      ['customer', 'validate', 'clientes-corrigido.xlsx', '--write-map', 'map.json'],
      {
        folder,
        configDir,
        tty: { stdin: true, stderr: true },
        answers: ['customerRegistrationAddress.street'],
        // --write-map refuses a map that exists: each way saves its own.
        beforeRun: () => rmSync(join(folder, 'map.json'), { force: true }),
      },
    );
    // The answer reads the sheet's registration dates as the street: those date cells are refused (no text field
    // holds a date), on either thread alike, and the map is saved all the same.
    expect(here.code).toBe(65);
    expect(here.stdout).toContain('(customerRegistrationAddress.street): ');
    expect(here.stdout).toContain('the cell is a date (the spreadsheet read what was typed, such as 1/2, as one)');
    expect(here.prompts.map((prompt) => prompt.kind)).toEqual(['select']);
    expect(there).toEqual(here);
    expect(JSON.parse(readFileSync(join(folder, 'map.json'), 'utf8'))).toMatchObject({
      'Data de cadastro': 'customerRegistrationAddress.street',
    });
  });

  it('--no-input: the thread never asks, and fails as the main thread does', async () => {
    const { folder, configDir } = workspace(fixture('libreoffice', 'clientes-corrigido.xlsx'));
    const { here, there } = await bothWays(['customer', 'validate', 'clientes-corrigido.xlsx', '--no-input'], {
      folder,
      configDir,
      tty: { stdin: true, stderr: true },
      answers: [],
    });
    expect(here.code).toBe(65);
    expect(here.stderr).toContain('"Data de cadastro" holds');
    expect(there).toEqual(here);
  });
});

describe('the thread itself', () => {
  const workbook = fixture('workbooks', 'estoque-3000.xlsx');
  const options = { file: workbook };

  it('stops at Ctrl-C as the main thread does: the interrupted error, exit 75', async () => {
    const test = testContext({ configDir: freshConfigDir() });
    test.interrupt('SIGINT');
    const run = validateOnThread({ verb: 'stock validate', options }, workbook, statSync(workbook).size, test.context);
    await expect(run).rejects.toBeInstanceOf(InterruptedError);
    await expect(run).rejects.toMatchObject({
      exitCode: 75,
      // Caught while the workbook's other parts are read, or once its rows began: which depends on when the thread
      // sees the signal, on a busy machine either.
      message: expect.stringMatching(
        /^Interrupted (while reading .*estoque-3000\.xlsx \(.*\)|after \d+ records?\b.*)\.?$/s,
      ),
    });
  });

  it('a workbook that needs more heap than the thread has is one line naming the setting', async () => {
    const test = testContext({ configDir: freshConfigDir() });
    const run = validateOnThread({ verb: 'stock validate', options }, workbook, statSync(workbook).size, test.context, {
      oldGenerationMb: 6,
    });
    await expect(run).rejects.toThrow(
      `${workbook}: validating this workbook needed more than the 6 MB its thread is given; validate it on the main thread with b2bctl config set input.workbookThreadMb off, then run it again.`,
    );
  });
});
