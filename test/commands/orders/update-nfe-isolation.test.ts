/**
 * In `orders update`, an NF-e file is its row's problem: one that breaks the XML reader (nesting far past an NF-e's,
 * a `__proto__` element) or is not an NF-e at all is refused on its row, without quoting the file, and
 * --skip-invalid sends the others. `invoiceXml` names a file inside the moves file's folder: an absolute path, `..`
 * or a link out of it gets one answer, whether or not the file outside exists, unless --allow-paths.
 */
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { moveHeader, sampleKeys, useMovesSandbox } from '../../support/order-moves.js';
import { onlyReport, readReport } from '../../support/run-files.js';

const fixture = useMovesSandbox({ orderCount: 2 });
let night: string;
const secret = 'SEGREDO-DO-VIZINHO root:x:0:0';

beforeEach(() => {
  const dir = fixture.dir;
  // The moves file and its NF-e in noite/; a file of someone else's beside it, outside that folder.
  night = join(dir, 'noite');
  mkdirSync(join(night, 'nfe'), { recursive: true });
  copyFileSync(join(dir, 'nfe', `${sampleKeys[0]}.xml`), join(night, 'nfe', 'boa.xml'));
  writeFileSync(join(dir, 'segredo.xml'), secret);
  writeFileSync(join(night, 'nfe', 'funda.xml'), `${'<a>'.repeat(100_000)}x${'</a>'.repeat(100_000)}`);
  writeFileSync(join(night, 'nfe', 'proto.xml'), '<nfeProc><__proto__><polluted>1</polluted></__proto__></nfeProc>');
  writeFileSync(join(night, 'nfe', 'texto.xml'), secret);
  symlinkSync(join(dir, 'segredo.xml'), join(night, 'nfe', 'link-fora.xml'));
  symlinkSync(join(dir, 'nada-aqui.xml'), join(night, 'nfe', 'link-para-nada.xml'));
});

const run = (args: string[]) => fixture.run(args, night);
const outside = `the NF-e must be a file inside ${'FOLDER'} (a relative path without "..", no link out of it); give it there, or run with --allow-paths`;

describe('orders update: NF-e files isolated and confined', () => {
  it('each bad NF-e is its row’s problem, named without its content; nothing sent; --skip-invalid sends the good row', async () => {
    const ids = fixture.newOrders(8);
    const paths = [
      'nfe/funda.xml',
      'nfe/proto.xml',
      'nfe/texto.xml',
      '../segredo.xml',
      join(fixture.dir, 'segredo.xml'),
      'nfe/link-fora.xml',
      'nfe/link-para-nada.xml',
      'nfe/boa.xml',
    ];
    writeFileSync(
      join(night, 'pedidos.csv'),
      [moveHeader, ...paths.map((path, index) => `${ids[index]};invoice;;${path};;;;;`), ''].join('\r\n'),
    );
    const before = fixture.moveRequests();
    const refused = await run(['orders', 'update', 'pedidos.csv']);
    expect(refused.code).toBe(65);
    const confined = outside.replace('FOLDER', night);
    const reasons = [
      'not an NF-e: elements nested more than 64 deep (an NF-e has fewer than 12)',
      'not an NF-e: the XML holds element names or a structure no NF-e has',
      'not well-formed XML (line 1): not an NF-e',
      confined,
      confined,
      confined,
      confined,
    ];
    reasons.forEach((reason, index) =>
      expect(refused.stderr).toContain(
        `pedidos.csv:${index + 2}: Property [invoiceXml] with value [${paths[index]}] does not pass validation (${reason})`,
      ),
    );
    expect(refused.stderr).not.toContain('SEGREDO');
    expect(refused.stderr).not.toContain('root:');
    expect(fixture.moveRequests()).toBe(before);

    const skipped = await run(['orders', 'update', 'pedidos.csv', '--skip-invalid']);
    expect(skipped.code).toBe(1);
    expect(fixture.acceptedMoves()).toEqual([`${ids[7]} invoice`]);
    const rows = readReport(join(night, onlyReport(night, 'pedidos')));
    expect(rows.filter((row) => row.outcome === 'invalid')).toHaveLength(7);
    expect(JSON.stringify(rows)).not.toContain('SEGREDO');
  });

  it('--allow-paths lets a row name a file outside the folder; a file that is not an NF-e is still not quoted', async () => {
    const [good, bad] = fixture.newOrders(2) as [number, number];
    copyFileSync(join(night, 'nfe', 'boa.xml'), join(fixture.dir, 'fora.xml'));
    writeFileSync(
      join(night, 'pedidos.csv'),
      [
        moveHeader,
        `${good};invoice;;${join(fixture.dir, 'fora.xml')};;;;;`,
        `${bad};invoice;;../segredo.xml;;;;;`,
        '',
      ].join('\r\n'),
    );
    const result = await run(['orders', 'update', 'pedidos.csv', '--allow-paths', '--skip-invalid']);
    expect(result.stderr).toContain(
      'pedidos.csv:3: Property [invoiceXml] with value [../segredo.xml] does not pass validation (not well-formed XML (line 1): not an NF-e)',
    );
    expect(result.stderr).not.toContain('SEGREDO');
    expect(fixture.acceptedMoves()).toEqual([`${good} invoice`]);
  });

  it('a resumed run keeps --allow-paths and --replace: the rows are judged as the first run judged them', async () => {
    const [id] = fixture.newOrders(1) as [number];
    copyFileSync(join(night, 'nfe', 'boa.xml'), join(fixture.dir, 'fora.xml'));
    writeFileSync(
      join(night, 'pedidos.csv'),
      [moveHeader, `${id};invoice;;../fora.xml;;;;;`, '999999;ready;PV-1;;;;;;', ''].join('\r\n'),
    );
    const first = await run(['orders', 'update', 'pedidos.csv', '--allow-paths', '--replace']);
    expect(first.code).toBe(1);
    const report = onlyReport(night, 'pedidos');
    const meta = JSON.parse(readFileSync(join(night, report.replace(/\.csv$/, '.meta.json')), 'utf8')) as {
      flags: Record<string, unknown>;
    };
    expect(meta.flags).toMatchObject({ allowPaths: true, replace: true });
    const resumed = await run(['orders', 'update', 'pedidos.csv', '--resume', report]);
    expect(resumed.stderr).not.toContain('must be a file inside');
    expect(resumed.code).toBe(1);
    expect(fixture.acceptedMoves()).toEqual([`${id} invoice`]);
  });
});
