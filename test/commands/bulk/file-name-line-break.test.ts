/**
 * A file name holding a line break (or an ESC) keeps every line a bulk run logs one line. Off a terminal each line
 * starts with its time, and the raw line break cut the validating, report:, errors:, error and closing lines in two:
 * the time landed inside the quoted name, so the resume command copied from a cron log named a file that does not
 * exist, and the closing line a log watcher greps for `exit N` became two lines. A name is now shown with `\n` (and
 * `\u{1B}`) in messages, and written `$'…'` in the commands a run prints, which bash reads back to the very name.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { closedPort } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { requestCounts, resetCounts, seedDirectory, useSandboxWithToken } from '../../support/sandbox.js';
import { temporaryFolder } from '../../support/temporary.js';
import { requireTools } from '../../support/external-tools.js';

let sandbox: RunningSandbox;
let env: Record<string, string>;
useSandboxWithToken((ready) => ({ sandbox, env } = ready));

const name = "estoque ção $HOME 'q' `x`\nlinha2.csv";
const shownName = "estoque ção $HOME 'q' `x`\\nlinha2.csv";
/** A log line as cron keeps it: its time, then the message. */
const timed = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z /;

/** Off a terminal with times on each line, as cron and a log file see it. */
const textLog = { B2BCTL_LOG_FORMAT: 'text' };

/**
 * The words bash makes of `command` (a line b2bctl printed, `b2bctl …` after any `VAR=value`), b2bctl being a shell
 * function that prints its arguments: what the pasted command would run, run from `folder`.
 */
function wordsBashReads(command: string, folder: string): string[] {
  const result = spawnSync('bash', ['-c', `b2bctl() { printf '%s\\0' "$@"; }; ${command}`], {
    cwd: folder,
    env: { PATH: process.env.PATH },
  });
  expect(result.status).toBe(0);
  return result.stdout.toString('utf8').split('\0').slice(0, -1);
}

/** `words` run in `folder` (its config in `folder`/config) on the sandbox, off a terminal, `extra` in its environment. */
function runInFolder(folder: string, words: string[], extra: Record<string, string> = {}) {
  return runCommandLine(words, {
    configDir: join(folder, 'config'),
    cwd: folder,
    env: { ...env, ...textLog, ...extra },
  });
}

/**
 * `words` run in `folder` on an invalid file: refused with exit 65 before anything is sent, each line of stderr and
 * the closing line one timed line. The run, and its stderr's lines.
 */
async function refusedBeforeSending(folder: string, words: string[]) {
  await resetCounts(sandbox);
  const result = await runInFolder(folder, words);
  expect(result.code).toBe(65);
  expect(await requestCounts(sandbox)).toEqual({});
  const lines = result.stderr.trimEnd().split('\n');
  for (const line of [...lines, result.closingLine ?? '']) expect(line).toMatch(timed);
  return { result, lines };
}

/** The value after `flag` in `words`. */
const after = (words: readonly string[], flag: string) => words[words.indexOf(flag) + 1] ?? '';

// Read back by bash, as a pasted line is.
const bash = requireTools('bash');

describe.skipIf(bash.missing)(`a file name with a line break in a bulk run${bash.note}`, () => {
  it('stock push to an unreachable store: each line one line, timed; the resume command pasted in bash names the file and the report', async () => {
    const folder = temporaryFolder('b2bctl-name-break-');
    copyFileSync(join(seedDirectory, 'stock.csv'), join(folder, name));
    const unreachable = `http://127.0.0.1:${await closedPort()}`;
    const result = await runInFolder(folder, ['stock', 'push', name, '--route', 'batch', '--retries', '0'], {
      B2BCTL_BASE_URL: unreachable,
    });
    expect(result.code).toBe(69);
    const lines = result.stderr.trimEnd().split('\n');
    for (const line of [...lines, result.closingLine ?? '']) expect(line).toMatch(timed);
    const message = (start: string) => lines.find((line) => line.replace(timed, '').startsWith(start)) ?? '';
    expect(message('stock push: validating ')).toMatch(new RegExp(`validating ${escaped(shownName)}$`));
    expect(message('stock push: report: ')).toMatch(
      /report: estoque ção \$HOME 'q' `x`\\nlinha2\.report-\d{8}-\d{6}\.csv$/,
    );
    expect(message('stock push: errors: ')).toMatch(
      /errors: estoque ção \$HOME 'q' `x`\\nlinha2\.errors-\d{8}-\d{6}\.csv \(/,
    );
    expect(result.closingLine).toMatch(
      new RegExp(`Z stock push: ${escaped(shownName)} to profile "default" \\(.+\\): 52 failed; exit 69$`),
    );
    const error = message('error: Cannot reach ');
    const resume = /; when it is back, run: (.+)$/.exec(error)?.[1] ?? '';
    expect(resume).toContain(" b2bctl stock push $'estoque ção $HOME \\'q\\' `x`\\nlinha2.csv' ");

    const words = wordsBashReads(resume, folder);
    expect(words.slice(0, 3)).toEqual(['stock', 'push', name]);
    expect(after(words, '--resume')).toMatch(/^estoque ção \$HOME 'q' `x`\nlinha2\.report-\d{8}-\d{6}\.csv$/);
    expect(existsSync(join(folder, after(words, '--resume')))).toBe(true);
  });

  it('stock push with items the store rejects: the feed-back command pasted in bash names the errors file; an ESC shown as \\u{1B}', async () => {
    const folder = temporaryFolder('b2bctl-name-break-');
    const withEsc = 'x\u001B[31m\nb.csv';
    writeFileSync(join(folder, withEsc), 'sku;quantity\nNAO-EXISTE-1;1\nNAO-EXISTE-2;2\n');
    await resetCounts(sandbox);
    const result = await runInFolder(folder, ['stock', 'push', withEsc, '--route', 'batch']);
    expect(result.code).toBe(1);
    expect(await requestCounts(sandbox)).toEqual({ 'PUT /v1/stock/batch': 1 });
    const lines = result.stderr.trimEnd().split('\n');
    for (const line of [...lines, result.closingLine ?? '']) expect(line).toMatch(timed);
    expect(result.closingLine).toMatch(
      /Z stock push: x\\u\{1B\}\[31m\\nb\.csv to profile "default" \(.+\): 2 rejected; exit 1$/,
    );
    const feedBack = lines.map((line) => /once fixed, feed it back with: (.+)$/.exec(line)?.[1]).find(Boolean) ?? '';
    expect(feedBack).toMatch(/ b2bctl stock push \$'x\\x1B\[31m\\nb\.errors-\d{8}-\d{6}\.csv' /);
    const words = wordsBashReads(feedBack, folder);
    expect(words[2]?.startsWith('x\u001B[31m\nb.errors-')).toBe(true);
    expect(existsSync(join(folder, words[2] ?? ''))).toBe(true);
  });

  it('customer create of an invalid file: the problem, error and closing lines one line each; nothing sent', async () => {
    const folder = temporaryFolder('b2bctl-name-break-');
    const customers = 'clientes\nnovos.csv';
    // The sample's first customer with a document whose check digits are wrong, and its second as it is.
    const sample = readFileSync(join(seedDirectory, 'customers.csv'), 'utf8').split('\n');
    writeFileSync(
      join(folder, customers),
      `${sample[0]}\n${(sample[1] ?? '').replace('100.007.919-89', '100.007.919-00')}\n${sample[2]}\n`,
    );
    const { result, lines } = await refusedBeforeSending(folder, ['customer', 'create', customers]);
    expect(lines[0]).toMatch(/Z customer create: validating clientes\\nnovos\.csv$/);
    expect(lines.some((line) => /Z clientes\\nnovos\.csv:2: /.test(line))).toBe(true);
    expect(lines.at(-1)).toMatch(/Z error: 1 record of clientes\\nnovos\.csv is invalid /);
    expect(result.closingLine).toMatch(
      /Z customer create: clientes\\nnovos\.csv to profile "default" \(.+\): 2 records, 1 valid, 1 invalid; nothing sent; exit 65$/,
    );
  });

  it('orders update of invalid moves: the validating, problem, error and closing lines one line each; nothing sent', async () => {
    const folder = temporaryFolder('b2bctl-name-break-');
    const moves = 'pedidos\nhoje.csv';
    writeFileSync(join(folder, moves), 'order,action\n1,bogus\n');
    const { result, lines } = await refusedBeforeSending(folder, ['orders', 'update', moves]);
    expect(lines[0]).toMatch(/Z orders update: validating pedidos\\nhoje\.csv$/);
    expect(lines[1]).toMatch(/Z pedidos\\nhoje\.csv:2: /);
    expect(lines.at(-1)).toMatch(/Z error: Every record of pedidos\\nhoje\.csv is invalid /);
    expect(result.closingLine).toMatch(
      /Z orders update: pedidos\\nhoje\.csv to profile "default" \(.+\): 1 record, 0 valid, 1 invalid; nothing sent; exit 65$/,
    );
  });

  it('stock push of more invalid rows than it prints: the validate command it names, pasted in bash, names the file', async () => {
    const folder = temporaryFolder('b2bctl-name-break-');
    const rows = Array.from({ length: 120 }, (_, index) => `S${index + 1};x`);
    writeFileSync(join(folder, name), ['sku;quantity', ...rows, ''].join('\n'));
    const { lines } = await refusedBeforeSending(folder, ['stock', 'push', name]);
    const listing = lines
      .map((line) => /every problem is listed by (.+) -o csv > problems\.csv$/.exec(line)?.[1])
      .find(Boolean);
    expect(listing).toBe("b2bctl stock validate $'estoque ção $HOME \\'q\\' `x`\\nlinha2.csv'");
    expect(wordsBashReads(listing ?? '', folder)).toEqual(['stock', 'validate', name]);
  });

  it('--log-format json: every line one JSON object; the closing line names the file exactly in its fields', async () => {
    const folder = temporaryFolder('b2bctl-name-break-');
    writeFileSync(join(folder, name), 'sku;quantity\nNAO-EXISTE-1;x\n');
    const result = await runInFolder(folder, ['stock', 'push', name], { B2BCTL_LOG_FORMAT: 'json' });
    expect(result.code).toBe(65);
    const objects = [...result.stderr.trimEnd().split('\n'), result.closingLine ?? ''].map(
      (line) => JSON.parse(line) as { message: string; fields?: { file?: string } },
    );
    expect(objects.at(-1)?.fields?.file).toBe(name);
    expect(objects.at(-1)?.message).toContain(`stock push: ${shownName} to profile "default"`);
  });

  it('stock validate: its summary and error one line each; -o ndjson names the file as it is', async () => {
    const folder = temporaryFolder('b2bctl-name-break-');
    writeFileSync(join(folder, name), 'sku;quantity\nA1;x\nA2;3\n');
    const result = await runInFolder(folder, ['stock', 'validate', name, '-o', 'ndjson']);
    expect(result.code).toBe(65);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toMatch(timed);
    expect(lines[0]).toContain(`Z ${shownName}: 2 `);
    expect(lines[1]).toContain(` of ${shownName} is invalid`);
    expect((JSON.parse(result.stdout) as { file: string }).file).toBe(name);
  });
});

/** `text` as a regular expression matching it literally. */
function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
