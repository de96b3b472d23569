/**
 * `sellers list` on a terminal (issue 9), checked on the rendered screen: the table fits the terminal's width
 * (no row wraps), and a full first page says it is only the first page.
 */
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../../../src/commands/sellers/list.js';
import { createContext } from '../../../../src/context.js';
import { sandboxDefaults } from '../../../../src/sandbox/options.js';
import type { RunningSandbox } from '../../../../src/sandbox/server.js';
import { renderedScreen, wrappedLineCount } from '../../../support/rendered-screen.js';
import { startTestSandbox } from '../../../support/sandbox.js';
import { temporaryFolder } from '../../../support/temporary.js';

let sandbox: RunningSandbox;
let token: string;
beforeAll(async () => {
  sandbox = await startTestSandbox();
  const answer = await fetch(`${sandbox.url}/v1/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: sandboxDefaults.username, password: sandboxDefaults.password }),
  });
  token = ((await answer.json()) as { access_token: string }).access_token;
});
afterAll(async () => {
  await sandbox.close();
});

/** Runs `sellers list` with stdout and stderr on one terminal `columns` wide; returns what it wrote there. */
async function onTerminal(
  options: { email?: string; limit?: number; offset?: number; all?: boolean },
  columns: number,
): Promise<string> {
  const terminal = Object.assign(new PassThrough(), { columns, isTTY: true });
  let written = '';
  terminal.on('data', (chunk) => (written += chunk));
  const context = createContext({
    io: {
      stdout: terminal,
      stderr: terminal,
      stdin: new PassThrough(),
      isStdoutTTY: true,
      isStderrTTY: true,
      isStdinTTY: false,
    },
    env: {
      B2BCTL_CONFIG_DIR: temporaryFolder('b2bctl-sellers-'),
      B2BCTL_BASE_URL: sandbox.url,
      B2BCTL_TOKEN: token,
    },
    globals: { quiet: false, verbose: false, color: false, input: false },
  });
  try {
    await run({ all: false, ...options }, context);
  } finally {
    await context.close();
  }
  return written;
}

const headers = ['EMAIL', 'DOCUMENT', 'CODE', 'PROFILE', 'RESTRICTED', 'PERMISSIONS'];

describe('sellers list on a terminal', () => {
  it('at 160 columns shows every column, nothing cut, no row wrapped', async () => {
    const written = await onTerminal({}, 160);
    const screen = await renderedScreen(written, 160);
    expect(screen[0]?.split(/ {2,}/)).toEqual(headers);
    expect(screen.slice(1, 21).every((line) => /^\S+@\S+ /.test(line))).toBe(true);
    expect(screen.join('\n')).not.toContain('…');
    expect(await wrappedLineCount(written, 160)).toBe(0);
  });

  it('at 80 columns drops the least useful columns first and wraps no row', async () => {
    const written = await onTerminal({}, 80);
    const screen = await renderedScreen(written, 80);
    expect(await wrappedLineCount(written, 80)).toBe(0);
    // RESTRICTED, then CODE, had to go (their planned widths, not this page's cells, decide).
    expect(screen[0]?.split(/ {2,}/)).toEqual(['EMAIL', 'DOCUMENT', 'PROFILE', 'PERMISSIONS']);
    // 20 rows, one screen line each, under the header.
    expect(screen.slice(1, 21).every((line) => /^\S+@?\S* /.test(line) && line.length <= 80)).toBe(true);
    expect(screen[21]).toBe('First 20 sales reps; --all for every page.');
    expect(screen.slice(22, 24)).toEqual([
      'CODE and RESTRICTED hidden to fit 80 columns: widen the terminal, or -o csv or',
      '-o json for every field.',
    ]);
    expect(screen[24]).toMatch(/^PERMISSIONS: F change freight, /);
  });

  it.each([80, 100, 101, 120])('at %i columns shows the same columns whatever the page holds', async (columns) => {
    const headerOf = async (options: { email?: string; offset?: number; limit?: number }) =>
      (await renderedScreen(await onTerminal(options, columns), columns))[0]?.split(/ {2,}/);
    const first = await headerOf({});
    // Short e-mails, another page, a single rep: narrower cells once let CODE come back.
    expect(await headerOf({ offset: 40 })).toEqual(first);
    expect(await headerOf({ limit: 1 })).toEqual(first);
    // The README's search, whose e-mails (kept whole) are wider than planned, once hid one column more.
    expect(await headerOf({ email: 'silva' })).toEqual(first);
  });

  it.each([
    [101, headers],
    [100, ['EMAIL', 'DOCUMENT', 'CODE', 'PROFILE', 'PERMISSIONS']],
    [88, ['EMAIL', 'DOCUMENT', 'PROFILE', 'PERMISSIONS']],
    [78, ['EMAIL', 'DOCUMENT', 'CODE', 'PERMISSIONS']],
    [77, ['EMAIL', 'DOCUMENT', 'PERMISSIONS']],
    [70, ['EMAIL', 'DOCUMENT', 'PERMISSIONS']],
  ])(
    "at %i columns, the README's --email silva shows the columns docs/output.md gives, no row wrapped",
    async (columns, shown) => {
      const written = await onTerminal({ email: 'silva' }, columns);
      const screen = await renderedScreen(written, columns);
      expect(await wrappedLineCount(written, columns)).toBe(0);
      expect(screen[0]?.split(/ {2,}/)).toEqual(shown);
      expect(screen[1]).toMatch(/^eduarda\.silva@b2b\.example\.com +94\.852\.546\/0001-14 /);
      expect(screen[2]).toMatch(/^lucas\.silva@distribuidorasul\.com\.br +083\.481\.755-12 /);
    },
  );

  it.each([58, 59, 60])(
    'at %i columns, --email silva leaves PERMISSIONS out, as docs/output.md says, and shows the e-mails whole: CODE stays out',
    async (columns) => {
      const written = await onTerminal({ email: 'silva' }, columns);
      const screen = await renderedScreen(written, columns);
      expect(await wrappedLineCount(written, columns)).toBe(0);
      expect(screen[0]?.split(/ {2,}/)).toEqual(['EMAIL', 'DOCUMENT']);
      // The 35-character e-mail searched for, whole: CODE once came back and cut it to `lucas.silva@distribuidoras…`.
      expect(screen[2]).toMatch(/^lucas\.silva@distribuidorasul\.com\.br +083\.481\.755-12$/);
      expect(screen.join('\n')).not.toContain('…');
      expect(screen.join('\n')).toContain(`CODE, PROFILE, RESTRICTED and PERMISSIONS hidden to fit ${columns}`);
      // No legend for a column not shown (a user test).
      expect(screen.join('\n')).not.toContain('PERMISSIONS: F');
      // Without the search, the same width keeps PERMISSIONS.
      const unfiltered = await renderedScreen(await onTerminal({ limit: 2 }, columns), columns);
      expect(unfiltered[0]?.split(/ {2,}/)).toEqual(['EMAIL', 'DOCUMENT', 'PERMISSIONS']);
    },
  );

  it.each([71, 77])(
    'at %i columns, --email silva shows its e-mails whole before CODE comes back in place of PROFILE',
    async (columns) => {
      const written = await onTerminal({ email: 'silva' }, columns);
      const screen = await renderedScreen(written, columns);
      expect(await wrappedLineCount(written, columns)).toBe(0);
      expect(screen[0]?.split(/ {2,}/)).toEqual(['EMAIL', 'DOCUMENT', 'PERMISSIONS']);
      expect(screen[2]).toMatch(/^lucas\.silva@distribuidorasul\.com\.br +083\.481\.755-12 +[-A-Z]{11}$/);
      expect(screen.slice(1, 4).join('\n')).not.toContain('…');
    },
  );

  it('at 120 columns hides nothing and says nothing about hidden columns', async () => {
    const screen = await renderedScreen(await onTerminal({}, 120), 120);
    expect(screen[0]?.split(/ {2,}/)).toEqual(headers);
    expect(screen.join('\n')).not.toContain('hidden to fit');
  });

  it('at 40 columns cuts cells with … and still wraps no table row', async () => {
    const written = await onTerminal({ limit: 5 }, 40);
    const screen = await renderedScreen(written, 40);
    expect(await wrappedLineCount(written, 40)).toBe(0);
    const rows = screen.slice(1, 6);
    // E-mails are cut, documents never: a document cut in the middle is a different document.
    expect(rows.every((line) => /^\S+…  \d{3}\.\d{3}\.\d{3}-\d{2}  [-A-Z]{11}$/.test(line))).toBe(true);
    expect(screen[6]).toBe('First 5 sales reps; --all for every');
    expect(screen[7]).toBe('page.');
  });

  it('at 60 columns, searching by e-mail keeps the e-mail column whole and drops the others first', async () => {
    const written = await onTerminal({ email: '@', limit: 5 }, 60);
    const screen = await renderedScreen(written, 60);
    expect(await wrappedLineCount(written, 60)).toBe(0);
    expect(screen[0]?.split(/ {2,}/).slice(0, 2)).toEqual(['EMAIL', 'DOCUMENT']);
    const rows = screen.slice(1, 6);
    expect(rows).toHaveLength(5);
    expect(rows.every((line) => /^\S+@\S+\.\w+ +\d{3}\.\d{3}\.\d{3}-\d{2}( |$)/.test(line))).toBe(true);
    expect(screen.join('\n')).not.toContain('…');
    // Without the filter the same terminal cuts the e-mails, as before.
    const unfiltered = await renderedScreen(await onTerminal({ limit: 5 }, 60), 60);
    expect(unfiltered.slice(1, 6).every((line) => line.includes('…'))).toBe(true);
  });

  it.each([
    [
      'searching by e-mail at 40 columns: the e-mails searched are cut rather than the rows wrapped',
      { email: '@' },
      40,
    ],
    ['at 30 columns: even the documents are cut rather than the rows wrapped', {}, 30],
  ])('%s', async (_case, options, columns) => {
    const written = await onTerminal({ ...options, limit: 5 }, columns);
    const screen = await renderedScreen(written, columns);
    expect(await wrappedLineCount(written, columns)).toBe(0);
    expect(screen.slice(1, 6).every((line) => line.includes('…'))).toBe(true);
  });

  it('at 20 columns, too narrow for the table even cut, each rep is a block of whole values and no line wraps', async () => {
    const written = await onTerminal({ limit: 3 }, 20);
    const screen = await renderedScreen(written, 20);
    // A user test: every row wrapped (`EMAIL   DOCUMENT  PE` / `RMISSIONS`), PERMISSIONS kept whole.
    expect(await wrappedLineCount(written, 20)).toBe(0);
    expect(screen.slice(0, 7)).toEqual([
      'EMAIL',
      '  Vitoria.Rocha@REPR',
      '  ESENTACOES.COM.BR',
      'DOCUMENT',
      '  081.855.795-80',
      'PERMISSIONS',
      '  ----A---CH-',
    ]);
    expect(screen[7]).toBe('');
    expect(screen.filter((line) => line === 'DOCUMENT')).toHaveLength(3);
    expect(screen.join('\n')).not.toContain('…');
    // PERMISSIONS is shown, so its legend is too.
    expect(screen.join(' ')).toContain('PERMISSIONS: F change freight, I insert freight');
  });

  it('at 28 columns each rep is a block, its values under their own column', async () => {
    const written = await onTerminal({ limit: 1 }, 28);
    const screen = await renderedScreen(written, 28);
    expect(await wrappedLineCount(written, 28)).toBe(0);
    expect(screen.slice(0, 5)).toEqual([
      'EMAIL        Vitoria.Rocha@R',
      '             EPRESENTACOES.',
      '             COM.BR',
      'DOCUMENT     081.855.795-80',
      'PERMISSIONS  ----A---CH-',
    ]);
  });

  it.each([
    [20, {}, true],
    [40, {}, true],
    [80, {}, true],
    [20, { email: 'silva' }, false],
    [40, { email: 'silva' }, false],
    [60, { email: 'silva' }, false],
    [80, { email: 'silva' }, true],
  ])(
    'at %i columns (%o) no screen line wraps, and the PERMISSIONS legend shows only with its column',
    async (columns, options, permissionsShown) => {
      const written = await onTerminal({ limit: 3, ...options }, columns);
      const screen = await renderedScreen(written, columns);
      expect(await wrappedLineCount(written, columns)).toBe(0);
      expect(screen.every((line) => line.length <= columns)).toBe(true);
      // The table's header, or a block's label (alone on its line, or beside the rep's letters).
      const shown =
        (screen[0] ?? '').endsWith(' PERMISSIONS') || screen.some((line) => /^PERMISSIONS( +[-A-Z]{11})?$/.test(line));
      expect(shown).toBe(permissionsShown);
      expect(screen.join(' ').includes('PERMISSIONS: F change freight')).toBe(permissionsShown);
    },
  );

  it('a page after --offset says where it started; a short one whose next page is empty is the last', async () => {
    const fromOffset = await renderedScreen(await onTerminal({ offset: 20 }, 160), 160);
    expect(fromOffset[21]).toBe('20 sales reps from offset 20; --all for every page.');
    const lastPage = await renderedScreen(await onTerminal({ offset: 60 }, 160), 160);
    expect(lastPage[5]).toBe('4 sales reps from offset 60.');
    const one = await renderedScreen(await onTerminal({ offset: 63 }, 160), 160);
    expect(one[2]).toBe('1 sales rep from offset 63.');
  });

  it('--all counts every rep without a page note', async () => {
    const screen = await renderedScreen(await onTerminal({ all: true }, 160), 160);
    expect(screen[65]).toBe('64 sales reps.');
  });
});

describe('sellers list --limit 1 on a terminal', () => {
  it('a full page of one says "First 1 sales rep"', async () => {
    const screen = await renderedScreen(await onTerminal({ limit: 1 }, 160), 160);
    expect(screen[2]).toBe('First 1 sales rep; --all for every page.');
  });
});
