#!/usr/bin/env node
// Issue 10's "Done when", as a run anyone can repeat: generates the hostile and unlucky files of the issue,
// feeds each to `customer validate`, `customer create`, `stock validate` and `stock push` against a sandbox,
// and prints a table. A run fails when b2bctl prints internal error text (TypeError, a stack), uses more than
// 200 MB, takes longer than a second per MB of input (at least one second, on top of Node's start-up measured
// first) to answer, ends by a signal or with an exit code outside 0/1/65/66, or prints a line of over 2,000 characters.
// Rows past the bounds of a row (input.maxColumns, input.maxRowChars) must be refused within one second whatever
// their size, with the message that names what was found.
// Usage: npm run -s build && node scripts/hostile-files.mjs [--only NAME-PART] [--keep] [--verbose]
// Needs /usr/bin/time (GNU time) for the memory figure. Exit code 1 when any run fails.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  closeSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// `--help` prints the comment above and exits: the run itself takes minutes.
if (process.argv.includes('--help') || process.argv.includes('-h')) {
  const header = readFileSync(fileURLToPath(import.meta.url), 'utf8')
    .split('\n')
    .slice(1);
  const usage = header.slice(
    0,
    header.findIndex((line) => !line.startsWith('//')),
  );
  process.stdout.write(`${usage.map((line) => line.replace(/^\/\/ ?/, '')).join('\n')}\n`);
  process.exit(0);
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'bin', 'b2bctl.js');
const fixtures = join(root, 'test', 'fixtures');
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const keep = process.argv.includes('--keep');
const limits = { rssMb: 200, secondsPerMb: 1, minimumSeconds: 1 };
const commands = [
  ['customer', 'validate'],
  ['customer', 'create'],
  ['stock', 'validate'],
  ['stock', 'push'],
];

const work = mkdtempSync(join(tmpdir(), 'b2bctl-hostile-'));
const files = join(work, 'files');
mkdirSync(files);

// ---- the files ------------------------------------------------------------------------------------
const win1252 = (text) => Buffer.from(text, 'latin1');
const customerHeader =
  'documentType;document;name;username;phone;password;customerRegistrationAddress.zipcode;customerRegistrationAddress.number';
const customerRow = (index) =>
  `cpf;${cpfOf(index)};Conceição ${index};cliente${index}@example.com;11987654321;Senha#${index};01310-100;${index}`;
const stockHeader = 'sku;quantity;price;warehouse';
const stockRow = (index) => `SKU-${index};${index % 50};${(index % 900) + 1},50;CD`;

/** A CPF check digit over the digits before it. */
function cpfDigit(numbers) {
  const sum = numbers.reduce((total, value, position) => total + value * (numbers.length + 1 - position), 0);
  const rest = (sum * 10) % 11;
  return rest === 10 ? 0 : rest;
}

/** A valid CPF for a number: the check digits computed. */
function cpfOf(index) {
  const base = String(100_000_000 + index)
    .slice(-9)
    .split('')
    .map(Number);
  const first = cpfDigit(base);
  const second = cpfDigit([...base, first]);
  return `${base.join('')}${first}${second}`;
}

/** name → bytes (or a function that writes the file itself, for the big ones). */
const made = new Map();
const add = (name, content) => made.set(name, content);

add('empty.csv', '');
add('bom-only.csv', '\uFEFF');
add('header-only.csv', `${customerHeader}\r\n`);
add(
  'trailing-delimiter-rows.win1252.csv',
  win1252(`${customerHeader}\r\n${customerRow(1)}\r\n;;;;;;;\r\n;;;;;;;\r\n   \r\n`),
);
add('template-with-delimiter-rows.csv', `${customerHeader}\r\n;;;;;;;\r\n;;;;;;;\r\n`);
add(
  'mixed-encodings.csv',
  Buffer.concat([Buffer.from(`${customerHeader}\n${customerRow(1)}\n`), win1252(`${customerRow(2)}\n`)]),
);
add(
  'undefined-1252-byte.csv',
  Buffer.concat([win1252(`${stockHeader}\nSKU-`), Buffer.from([0x81]), Buffer.from(';1;1,00;CD\n')]),
);
add(
  'bom-then-win1252.csv',
  Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), win1252(`${customerHeader}\r\n${customerRow(3)}\r\n`)]),
);
add('utf16-without-bom.txt', Buffer.from(`${stockHeader}\n${stockRow(1)}\n`, 'utf16le'));
add('sep-line.csv', `sep=;\r\n${stockHeader}\r\n${stockRow(2)}\r\n`);
add('tab-decimal-commas.txt', `sku\tquantity\tprice\nSKU-T\t3\t1.234,56\n`);
add(
  'currency-and-as-written.csv',
  `${stockHeader}\nSKU-R;1;R$ 1.234,50;CD\nSKU-Q;104,313;1,00;CD\nSKU-P;9007199254740993;1,00;CD\n`,
);
add(
  'lost-zeros-scientific.csv',
  `${customerHeader}\n${customerRow(4).replace(cpfOf(4), '1234567890')}\ncpf;1,12223E+13;Ana;ana@example.com;11987654321;Senha#1;1310100;1\n`,
);
add('line-break-in-cell.csv', `${stockHeader};note\nSKU-L1;1;1,00;CD;"two\nlines"\nSKU-L2;-1;1,00;CD;\n`);
add('text-after-closing-quote.csv', `${stockHeader}\n"SKU-A"x;1;1,00;CD\n`);
add('unclosed-quote.csv', `${stockHeader}\n"SKU-U;1;1,00;CD\nSKU-V;1;1,00;CD\n`);
add('huge-list-index.csv', `document;addressList.99999999.zipcode\n${cpfOf(5)};01310-100\n`);
add(
  'million-list-index.csv',
  `document;addressList.1000000.zipcode;addressList.1000000.number\n${cpfOf(6)};01310-100;1\n`,
);
add('prototype-headers.csv', `document;__proto__;constructor;toString;sku\n${cpfOf(7)};x;y;z;SKU-P\n`);
add(
  'prototype-keys.json',
  JSON.stringify([{ document: cpfOf(8), sku: 'SKU-J', constructor: 'x', ['__proto__']: 'y' }]),
);
add('formula-cells.csv', `${stockHeader}\n=HYPERLINK("http://evil.example";"x");1;1,00;CD\n+cmd;-1;1,00;@SUM(A1)\n`);
add(
  'nul-after-4kb.csv',
  `${stockHeader}\n${Array.from({ length: 300 }, (_, index) => stockRow(index + 10)).join('\n')}\nAna\u0000Maria;1;1,00;CD\n`,
);
add(
  'invisible-characters.csv',
  `${stockHeader}\nSKU\u0085A;1;1,00;CD\nSKU\u202EB;1;1,00;CD\nSKU\u200BC;1;1,00;CD\nSKU\u2028D;1;1,00;CD\nSKU-\u001b]0;pwned\u0007E;1;1,00;CD\n`,
);
add('control-in-sku.csv', `${stockHeader}\nA\u0001B;1;1,00;CD\n`);
add('beyond-precision.csv', `${stockHeader}\nSKU-X;1;99999999999999999999,99;CD\n`);
add('beyond-precision.json', '[{"sku":"SKU-X","quantity":9007199254740993,"price":99999999999999999999.99}]');
add('duplicate-keys.json', '[{"sku":"SKU-D","quantity":1,"sku":"SKU-E"}]');
add('lone-surrogate.json', '[{"sku":"SKU-\\ud800","quantity":1,"document":"x","name":"A\\udc00"}]');
add(
  'minified.json',
  JSON.stringify(Array.from({ length: 50 }, (_, index) => ({ sku: `SKU-M${index}`, quantity: index - 3 }))),
);
add('wrapped-list.json', JSON.stringify({ customers: [{ document: cpfOf(9), name: 'Ana' }] }));
add('syntax-error.json', '[\n  {"document": "1"},\n  {"document": "2",}\n]');
add('nested-100000.json', `${'['.repeat(100_000)}${']'.repeat(100_000)}`);
add('nested-objects-100000.json', `[${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}]`);
add('scalars.ndjson', '1\n"x"\nnull\n[1,2]\n');
add('random-binary.csv', Buffer.from(Array.from({ length: 4096 }, (_, index) => (index * 7919 + 13) % 256)));
add('workbook.xlsx.csv', Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 1)]));
add('gzip.csv', Buffer.from([0x1f, 0x8b, 0x08, 0x00, ...Array(100).fill(0)]));
add('html-one-line-8mb.csv', (path) => {
  const descriptor = openSync(path, 'w');
  writeSync(descriptor, '<!DOCTYPE html><html><head><title>export</title></head><body>');
  const block = '<div class="x">'.padEnd(1024, 'y');
  for (let index = 0; index < 8 * 1024; index++) writeSync(descriptor, block);
  closeSync(descriptor);
});
// A header of millions of empty cells, and a data row of them: refused at the first 16,385 columns.
add('semicolons-header-8mb.csv', `${';'.repeat(8 * 1024 * 1024)}\n${stockRow(1)}\n`);
add('semicolons-row-2mb.csv', `${stockHeader}\n${';'.repeat(2 * 1024 * 1024)}\n`);
// Long but real rows: the message names the cell or the columns and the setting, never an HTML page.
// Both a customer and a stock header, so every command reads as far as the row.
add('cell-1mb.csv', `document;${stockHeader};note\n${cpfOf(13)};SKU-C;1;1,00;CD;${'nota longa '.repeat(100_000)}\n`);
add('header-cell-1mb.csv', `${'cabeçalho'.repeat(120_000)};${stockHeader}\n${stockRow(1)}\n`);
add(
  'unknown-columns-100000.csv',
  `${Array.from({ length: 100_000 }, (_, index) => `coluna${index}`).join(';')};sku;document\n`,
);
add('duplicates-10000.csv', `${customerHeader}\n${Array.from({ length: 10_000 }, () => customerRow(11)).join('\n')}\n`);
add('duplicate-skus-10000.csv', `${stockHeader}\n${Array.from({ length: 10_000 }, () => stockRow(12)).join('\n')}\n`);
add('stock-20mb-last-row-invalid.csv', (path) => {
  const descriptor = openSync(path, 'w');
  writeSync(descriptor, `${stockHeader}\n`);
  let chunk = '';
  for (let index = 1; index <= 700_000; index++) {
    chunk += `${stockRow(index)}\n`;
    if (chunk.length > 1 << 16) {
      writeSync(descriptor, chunk);
      chunk = '';
    }
  }
  writeSync(descriptor, `${chunk}SKU-LAST;-1;1,00;CD\n`);
  closeSync(descriptor);
});
add('folder-as-file', (path) => mkdirSync(path));
for (const name of [
  'clientes.cp850.csv',
  'clientes.macroman.csv',
  'clientes.utf16.txt',
  'estoque.tab.txt',
  'estoque.sep.csv',
])
  add(`real-export-${name}`, (path) => copyFileSync(join(fixtures, 'real-exports', name), path));

/** What a refusal must say, and how long it may take at most (on top of start-up), whatever the file's size. */
const tooManyColumns = /a row of at least [\d,]+ columns, more than the 16,384 the input\.maxColumns setting allows/;
// Its length, its longest cell by column, and the setting's value that reads it.
const longRow =
  /a row of [\d,]+ characters, more than the 200,000 the input\.maxRowChars setting allows; its cell in column \d+ \([A-Z]+\)( "[^"]*")? holds [\d,]+ characters\. .*b2bctl config set input\.maxRowChars \d+\./;
const expected = new Map([
  ['semicolons-header-8mb.csv', { says: tooManyColumns, seconds: 1 }],
  ['semicolons-row-2mb.csv', { says: tooManyColumns, seconds: 1 }],
  ['unknown-columns-100000.csv', { says: tooManyColumns, seconds: 1 }],
  ['cell-1mb.csv', { says: longRow }],
  ['header-cell-1mb.csv', { says: longRow }],
  ['html-one-line-8mb.csv', { says: /this is a web page \(HTML\), not CSV/, seconds: 1 }],
]);

/** Paths that are not files we write: each run is given the path as it is. */
const outsidePaths = [
  ['missing-file.csv', join(files, 'no-such-file.csv')],
  ['/dev/zero', '/dev/zero'],
];

// ---- the runs -------------------------------------------------------------------------------------
const internalText =
  /TypeError|RangeError|ReferenceError|SyntaxError: |Maximum call stack|heap out of memory|node:internal|\n\s+at .+:\d+:\d+\)?|\bat async\b/;
const acceptedExits = new Set([0, 1, 65, 66]);

async function startSandbox() {
  const child = spawn(process.execPath, [cli, 'sandbox', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8');
  while (!output.includes('\n')) {
    const [chunk] = await once(child.stdout, 'data');
    output += chunk;
  }
  return { child, url: output.split('\n')[0].trim() };
}

function isEmptyFile(path) {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function runOnce(args, environment, cwd) {
  return new Promise((resolvePromise) => {
    const started = process.hrtime.bigint();
    const child = spawn('/usr/bin/time', ['-f', '@@time %M %e', process.execPath, cli, ...args], {
      cwd,
      env: environment,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let stdoutBytes = 0;
    child.stdout.on('data', (chunk) => {
      stdoutBytes += chunk.length;
      if (stdout.length < 1 << 20) stdout += chunk;
    });
    // GNU time's own line comes last: kept apart, so a run that prints megabytes still shows its memory.
    let tail = '';
    child.stderr.on('data', (chunk) => {
      if (stderr.length < 1 << 20) stderr += chunk;
      tail = (tail + chunk).slice(-4096);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const measured = /@@time (\d+) ([\d.]+)\s*$/.exec(tail);
      const shown = stderr.lastIndexOf('@@time');
      const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
      resolvePromise({
        code,
        signal,
        stdout,
        stdoutBytes,
        stderr: shown >= 0 ? stderr.slice(0, shown) : stderr,
        rssMb: measured ? Number(measured[1]) / 1024 : Number.NaN,
        seconds: measured ? Number(measured[2]) : wallSeconds,
        // GNU time reports a child killed by a signal as "Command terminated by signal N".
        terminatedBy: /Command terminated by signal (\d+)/.exec(tail)?.[1],
      });
    });
  });
}

for (const [name, content] of made) {
  if (only && !name.includes(only)) continue;
  const path = join(files, name);
  if (typeof content === 'function') content(path);
  else writeFileSync(path, content);
}

const sandbox = await startSandbox();
process.on('exit', () => sandbox.child.kill('SIGTERM'));
// "Before answering" is b2bctl's own work: Node's start-up on this machine (a tiny valid file, best of three) is not counted.
const baselineFolder = mkdtempSync(join(work, 'baseline-'));
writeFileSync(join(baselineFolder, 'tiny.csv'), `${stockHeader}\n${stockRow(1)}\n`);
let baseline = Number.POSITIVE_INFINITY;
for (let attempt = 0; attempt < 3; attempt++) {
  const result = await runOnce(
    ['stock', 'validate', 'tiny.csv'],
    { PATH: process.env.PATH ?? '', HOME: baselineFolder, B2BCTL_CONFIG_DIR: join(baselineFolder, 'config') },
    baselineFolder,
  );
  baseline = Math.min(baseline, result.seconds);
}
const rows = [];
const targets = [
  ...[...made.keys()].filter((name) => !only || name.includes(only)).map((name) => [name, join(files, name)]),
  ...outsidePaths.filter(([name]) => !only || name.includes(only)),
];
for (const [name, path] of targets) {
  let size = 0;
  try {
    const stats = statSync(path);
    size = stats.isFile() ? stats.size : 0;
  } catch {
    size = 0;
  }
  for (const command of commands) {
    // Each run in its own folder and config: reports land beside a copy, and no lock or token carries over.
    const runFolder = mkdtempSync(join(work, 'run-'));
    const input = size > 0 || isEmptyFile(path) ? join(runFolder, name) : path;
    if (input !== path) copyFileSync(path, input);
    const environment = {
      PATH: process.env.PATH ?? '',
      HOME: runFolder,
      TMPDIR: runFolder,
      NO_COLOR: '1',
      B2BCTL_CONFIG_DIR: join(runFolder, 'config'),
      B2BCTL_BASE_URL: sandbox.url,
      B2BCTL_USERNAME: 'integration@sandbox.test',
      B2BCTL_PASSWORD: 'sandbox-secret',
    };
    const result = await runOnce([...command, input], environment, runFolder);
    const expectation = expected.get(name);
    const budget =
      baseline +
      (expectation?.seconds ?? Math.max(limits.minimumSeconds, (size / (1024 * 1024)) * limits.secondsPerMb));
    const problems = [];
    if (result.signal || result.terminatedBy) problems.push(`signal ${result.signal ?? result.terminatedBy}`);
    if (result.code !== null && !acceptedExits.has(result.code)) problems.push(`exit ${result.code}`);
    if (internalText.test(result.stderr) || internalText.test(result.stdout)) problems.push('internal error text');
    if (result.rssMb > limits.rssMb) problems.push(`${result.rssMb.toFixed(0)} MB`);
    // The rule is about reading: a validate, or a send command that refused its input. A run that sends
    // is timed in the table but judged by the benchmarks, not by this rule.
    const answersFromReading = command[1] === 'validate' || (result.code !== 0 && result.code !== 1);
    if (answersFromReading && result.seconds > budget)
      problems.push(`${result.seconds.toFixed(1)} s > ${budget.toFixed(1)} s`);
    const longest = Math.max(...`${result.stderr}\n${result.stdout}`.split('\n').map((line) => line.length));
    if (longest > 2000) problems.push(`a ${longest}-character line`);
    if (expectation && !expectation.says.test(result.stderr)) problems.push(`does not say ${expectation.says}`);
    const lastError =
      result.stderr
        .split('\n')
        .filter((line) => line.startsWith('error:'))
        .at(-1) ?? '';
    rows.push({
      file: name,
      size,
      command: command.join(' '),
      exit: result.code ?? result.signal,
      rssMb: result.rssMb,
      seconds: result.seconds,
      verdict: problems.length === 0 ? 'ok' : `FAIL: ${problems.join(', ')}`,
      says: lastError.slice(0, 110),
      stderr: result.stderr,
    });
    if (!keep) rmSync(runFolder, { recursive: true, force: true });
  }
}
sandbox.child.kill('SIGTERM');

// ---- the table ------------------------------------------------------------------------------------
const sizeText = (bytes) => (bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MB` : `${bytes} B`);
const header = ['file', 'size', 'command', 'exit', 'RSS MB', 's', 'verdict'];
const table = rows.map((row) => [
  row.file,
  sizeText(row.size),
  row.command,
  String(row.exit),
  row.rssMb.toFixed(0),
  row.seconds.toFixed(2),
  row.verdict,
]);
const widths = header.map((title, column) => Math.max(title.length, ...table.map((cells) => cells[column].length)));
const line = (cells) =>
  cells
    .map((cell, column) => cell.padEnd(widths[column]))
    .join('  ')
    .trimEnd();
console.log(line(header));
console.log(line(widths.map((width) => '-'.repeat(width))));
for (const cells of table) console.log(line(cells));
const failed = rows.filter((row) => row.verdict !== 'ok');
const worst = rows.reduce((most, row) => Math.max(most, row.rssMb), 0);
console.log(
  `\n${rows.length} runs over ${targets.length} files: ${rows.length - failed.length} ok, ${failed.length} failed; highest RSS ${worst.toFixed(0)} MB; start-up baseline ${baseline.toFixed(2)} s (budget: baseline + max(1 s, 1 s per MB)).`,
);
if (process.argv.includes('--verbose') || failed.length > 0)
  for (const row of failed) console.log(`\n--- ${row.file} / ${row.command}\n${row.stderr.slice(0, 1500)}`);
if (!keep) rmSync(work, { recursive: true, force: true });
else console.log(`\nfiles kept in ${work}`);
process.exitCode = failed.length > 0 ? 1 : 0;
