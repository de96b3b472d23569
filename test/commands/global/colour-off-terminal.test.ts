import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSandboxPerFile } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { temporaryFolder } from '../../support/temporary.js';

let configDir = '';
useSandboxPerFile({ login: true }, (setup) => {
  configDir = setup.configDir;
});

// NO_COLOR unset and no --no-color: only the terminal decides, as in an operator's shell with `> file`.
const colourAllowed = { NO_COLOR: '' };
const escape = '\u001b[';

describe('colour only on a terminal, for every table', () => {
  it.each([
    [['orders', 'poll', '--since', '31d', '--cursor', join(temporaryFolder('b2bctl-poll-colour-'), 'cursor.json')]],
    [['sellers', 'list', '--limit', '5']],
    [['config', 'list']],
    [['doctor']],
  ])('%j -o table written to a file has no escape codes', async (args) => {
    const result = await runCommandLine([...args, '-o', 'table'], { configDir, env: colourAllowed });
    expect(result.stdout.split('\n')[0]).toMatch(/^[A-Z]+ {2}/);
    expect(result.stdout).not.toContain(escape);
  });

  it('the same table on a terminal is decorated (so the check above can fail)', async () => {
    const result = await runCommandLine(['sellers', 'list', '--limit', '5', '-o', 'table'], {
      configDir,
      env: colourAllowed,
      tty: { stdout: true },
    });
    expect(result.stdout).toContain(escape);
  });
});

describe('orders poll -o table', () => {
  it('lists its rows in update order, oldest first', async () => {
    const cursor = join(temporaryFolder('b2bctl-poll-order-'), 'cursor.json');
    const result = await runCommandLine(['orders', 'poll', '--since', '31d', '--cursor', cursor, '-o', 'table'], {
      configDir,
    });
    expect(result.code).toBe(0);
    const [header = '', ...rows] = result.stdout.trimEnd().split('\n');
    const updatedAt = header.indexOf('UPDATED');
    const instants = rows.map((row) => Date.parse(row.slice(updatedAt).split(/\s+/)[0] ?? ''));
    expect(instants.length).toBeGreaterThan(10);
    expect(instants.every((instant) => Number.isFinite(instant))).toBe(true);
    expect(instants).toEqual(instants.toSorted((a, b) => a - b));
  });
});

describe('--excel', () => {
  it.each([
    [['sellers', 'list', '--limit', '2', '-o', 'csv', '--excel']],
    // --excel alone means its CSV.
    [['sellers', 'list', '--limit', '2', '--excel']],
  ])('%j: a BOM, then ";" between cells, for a pt-BR Excel', async (args) => {
    const result = await runCommandLine(args, { configDir });
    expect(result.code).toBe(0);
    const [header = '', ...rows] = result.stdout.split('\r\n');
    expect(header).toMatch(/^\uFEFFid;username;document;/);
    expect(rows.filter((row) => row !== '')).toHaveLength(2);
  });
});
