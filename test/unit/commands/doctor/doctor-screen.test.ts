/**
 * `b2bctl doctor` on a terminal, checked on the rendered screen at 80 and 120 columns: no line wider than the
 * terminal, no word cut by the terminal (`SETTIN` / `G`), every finding's words on screen whole; and the layout's
 * lines at every width in between and around.
 */
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findingsOnScreen, run } from '../../../../src/commands/doctor/run.js';
import { createContext } from '../../../../src/context.js';
import { sandboxDefaults } from '../../../../src/sandbox/options.js';
import type { RunningSandbox } from '../../../../src/sandbox/server.js';
import { renderedScreen, wrappedLineCount } from '../../../support/rendered-screen.js';
import { startTestSandbox } from '../../../support/sandbox.js';
import { temporaryFolder } from '../../../support/temporary.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(async () => sandbox.close());

/** Runs doctor with stdout on a terminal `columns` wide (or a pipe when undefined); returns what it wrote there. */
async function doctorOutput(columns: number | undefined, output?: 'json'): Promise<string> {
  const stdout = Object.assign(new PassThrough(), columns === undefined ? {} : { columns, isTTY: true });
  let written = '';
  stdout.on('data', (chunk) => (written += chunk));
  const context = createContext({
    io: {
      stdout,
      stderr: new PassThrough(),
      stdin: new PassThrough(),
      isStdoutTTY: columns !== undefined,
      isStderrTTY: false,
      isStdinTTY: false,
    },
    env: {
      B2BCTL_CONFIG_DIR: temporaryFolder('b2bctl-doctor-'),
      B2BCTL_BASE_URL: sandbox.url,
      B2BCTL_USERNAME: sandboxDefaults.username,
      B2BCTL_PASSWORD: sandboxDefaults.password,
    },
    globals: { quiet: false, verbose: false, color: false, input: false, output },
  });
  try {
    await run({ document: '529.982.247-25' }, context).catch(() => undefined);
  } finally {
    await context.close();
  }
  return written;
}

interface Finding {
  check: string;
  detail: string;
  setting?: string;
}

describe('doctor on a terminal', () => {
  it.each([80, 120])(
    'at %i columns: no row wraps, and every word of every finding is on screen whole',
    async (columns) => {
      const findings = JSON.parse(await doctorOutput(undefined, 'json')) as Finding[];
      expect(findings.some((finding) => `${finding.check} ${finding.detail}`.length > columns)).toBe(true);
      const written = await doctorOutput(columns);
      expect(await wrappedLineCount(written, columns)).toBe(0);
      const screen = await renderedScreen(written, columns);
      expect(screen.every((line) => line.length <= columns)).toBe(true);
      const wordsOnScreen = new Set(screen.join(' ').split(/\s+/));
      // A word longer than its column is broken at `/`, `,` or `.`; any other word is whole on one line.
      const brokenWords = findings.flatMap((finding) =>
        `${finding.detail} ${finding.setting ?? ''}`
          .split(/\s+/)
          .filter((word) => word.length > 0 && word.length < 12 && !wordsOnScreen.has(word))
          .map((word) => `"${word}" of ${finding.check}`),
      );
      expect(brokenWords).toEqual([]);
    },
  );

  it('at every width from 60 to 200 columns, no line is wider than the terminal', async () => {
    // At 100 the table's wrapping columns were given their narrowest past what the checks' names left: 108 wide.
    const findings = JSON.parse(await doctorOutput(undefined, 'json')) as Parameters<typeof findingsOnScreen>[0];
    const tooWide: string[] = [];
    for (let columns = 60; columns <= 200; columns++) {
      const widest = Math.max(
        ...findingsOnScreen(findings, columns)
          .split('\n')
          .map((line) => line.length),
      );
      if (widest > columns) tooWide.push(`${widest} at ${columns}`);
    }
    expect(tooWide).toEqual([]);
  });

  it('at 80 columns stacks the findings: the result and check first, then the detail indented', async () => {
    const screen = await renderedScreen(await doctorOutput(80), 80);
    expect(screen[0]).toMatch(/^ok {4}base URL$/);
    expect(screen[1]).toMatch(/^ {6}http:\/\/127\.0\.0\.1:\d+ \(profile "default", from [^)]+\)$/);
    expect(
      screen.some((line) => /^ {6}setting: answers\.stockBatch\.results, answers\.stockQueue\.id$/.test(line)),
    ).toBe(true);
  });

  it.each([40, 20])(
    'at %i columns: no line wraps, and a check too long for its line goes on under itself, past the result',
    async (columns) => {
      const written = await doctorOutput(columns);
      expect(await wrappedLineCount(written, columns)).toBe(0);
      const screen = await renderedScreen(written, columns);
      // A finding's first line starts with its result; every other line is indented under its check (a user test:
      // `ok    GET` / `/sellerModule/listSellers?limit=1  (HTTP` / `200)`, the check's end back at the edge).
      expect(screen.filter((line) => !/^(ok|skip|fail|warn) +\S/.test(line) && !/^ {6}\S/.test(line))).toEqual([]);
    },
  );

  it('at 40 columns, the listing check too long for its line goes on under itself', async () => {
    const screen = await renderedScreen(await doctorOutput(40), 40);
    const listing = screen.indexOf('      /sellerModule/listSellers?limit=1');
    expect(screen.slice(listing - 1, listing + 3)).toEqual([
      'ok    GET',
      '      /sellerModule/listSellers?limit=1',
      '      (HTTP 200)',
      '      a bare array, 1 record',
    ]);
  });

  it('at 120 columns keeps the table, its header first and long cells wrapped inside their column', async () => {
    const screen = await renderedScreen(await doctorOutput(120), 120);
    expect(screen[0]?.split(/ {2,}/)).toEqual(['CHECK', 'RESULT', 'STATUS', 'RECOGNISED', 'SETTING']);
    const recognisedAt = screen[0]?.indexOf('RECOGNISED') ?? -1;
    // A continuation line of a wrapped cell starts blank up to its column.
    expect(screen.some((line) => line.length > recognisedAt && line.slice(0, recognisedAt).trim() === '')).toBe(true);
  });
});
