import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  checkNfeDocument,
  maximumNfeBytes,
  recipientMismatch,
  sameTotalToTheCentavo,
} from '../../../src/domain/nfe-document.js';

const now = Date.parse('2026-11-25T12:00:00Z');
const authorised = readFileSync('samples/nfe/35261011222333000181550010000012341123456787.xml', 'utf8');
const alphanumeric = readFileSync('samples/nfe/35261012ABC34501DE35550010000012351123456785.xml', 'utf8');

function check(text: string | Uint8Array) {
  return checkNfeDocument(typeof text === 'string' ? Buffer.from(text, 'utf8') : text, now);
}

describe('checkNfeDocument', () => {
  it('accepts an authorised NF-e 4.00 and reads its key', () => {
    expect(check(authorised)).toMatchObject({
      ok: true,
      key: { key: '35261011222333000181550010000012341123456787', state: 'SP', model: '55', emitter: '11222333000181' },
      warnings: [],
    });
  });

  it('accepts an alphanumeric CNPJ emitter whose key carries it', () => {
    expect(check(alphanumeric)).toMatchObject({ ok: true, key: { emitter: '12ABC34501DE35' } });
  });

  it('refuses an NF-e of the same buyer that is not a sale invoice: inbound, return, complementary, adjusting', () => {
    expect(authorised).toContain('<tpNF>1</tpNF>');
    expect(check(authorised.replace('<tpNF>1</tpNF>', '<tpNF>1</tpNF><finNFe>1</finNFe>')).ok).toBe(true);
    expect(check(authorised.replace('<tpNF>1</tpNF>', '<tpNF>0</tpNF>'))).toEqual({
      ok: false,
      reason:
        "an inbound NF-e (tpNF 0: a return or a purchase), not the sale's invoice: send the order's outbound NF-e",
    });
    for (const [purpose, named] of [
      ['2', 'a complementary'],
      ['3', 'an adjusting'],
      ['4', 'a return'],
    ] as const)
      expect(check(authorised.replace('<tpNF>1</tpNF>', `<tpNF>1</tpNF><finNFe>${purpose}</finNFe>`))).toEqual({
        ok: false,
        reason: `${named} NF-e (finNFe ${purpose}), not the sale's invoice: send the order's normal NF-e (finNFe 1)`,
      });
  });

  it('accepts a UTF-8 byte order mark and cStat 150 (authorised out of time)', () => {
    const late = authorised.replace('<cStat>100</cStat>', '<cStat>150</cStat>');
    expect(check(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(late)])).ok).toBe(true);
  });

  it.each([
    [
      'unauthorised (denied, 302)',
      authorised
        .replace('<cStat>100</cStat>', '<cStat>302</cStat>')
        .replace('Autorizado o uso da NF-e', 'Uso Denegado'),
      'cStat is 302 (Uso Denegado): only an authorised',
    ],
    ['without its protocol', authorised.replace(/<protNFe[\s\S]*<\/protNFe>/, ''), 'no authorisation protocol'],
    [
      'not an NF-e',
      '<?xml version="1.0" encoding="UTF-8"?><cteProc><CTe><infCte Id="CTe1"/></CTe></cteProc>',
      'not an NF-e',
    ],
    ['malformed', authorised.replace('</emit>', ''), 'not well-formed XML (line'],
    ['version 3.10', authorised.replace('<infNFe versao="4.00"', '<infNFe versao="3.10"'), 'version 3.10'],
    [
      'with a mistyped key in its Id',
      authorised.replace(
        'Id="NFe35261011222333000181550010000012341123456787"',
        'Id="NFe35261011222333000181550010000012341123456788"',
      ),
      'infNFe Id: the access key check digit',
    ],
    [
      'with another emitter',
      authorised.replace('<CNPJ>11222333000181</CNPJ>', '<CNPJ>00360305000104</CNPJ>'),
      'is not the emitter in the access key (11222333000181)',
    ],
    [
      'with an invalid emitter CNPJ',
      authorised.replace('<CNPJ>11222333000181</CNPJ>', '<CNPJ>11222333000180</CNPJ>'),
      'emit/CNPJ 11222333000180 is not valid',
    ],
    [
      'with a protocol for another key',
      authorised.replace(
        '<chNFe>35261011222333000181550010000012341123456787',
        '<chNFe>43261000360305000104550010000099991876543210',
      ),
      'the protocol is for access key 4326',
    ],
    [
      'declaring ISO-8859-1',
      authorised.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"'),
      'declared encoding is ISO-8859-1',
    ],
    ['with a DOCTYPE', authorised.replace('<nfeProc', '<!DOCTYPE x [<!ENTITY a "b">]><nfeProc'), 'no DOCTYPE'],
    // Found by a fresh user test: each was sent as the order's authorised invoice.
    [
      'issued in the future',
      authorised.replace('<dhEmi>2026-10-14T10:20:30-03:00', '<dhEmi>2026-11-27T10:20:30-03:00'),
      'the issue date (dhEmi) 2026-11-27T10:20:30-03:00 is in the future',
    ],
    [
      'whose issue date is no date',
      authorised.replace('<dhEmi>2026-10-14T10:20:30-03:00', '<dhEmi>14/10/2026'),
      'the issue date (dhEmi) 14/10/2026 is not a date and time as an NF-e writes it',
    ],
    [
      "issued outside its key's month",
      authorised.replace('<dhEmi>2026-10-14T10:20:30-03:00', '<dhEmi>2025-10-14T10:20:30-03:00'),
      "the issue date (dhEmi) 2025-10-14T10:20:30-03:00 is not in the access key's month of issue (2026-10)",
    ],
    ['without an issue date', authorised.replace(/<dhEmi>[^<]*<\/dhEmi>/, ''), 'no issue date (ide/dhEmi)'],
    [
      'with a total written with a comma',
      authorised.replace('<vNF>1234.56', '<vNF>1234,56'),
      'the NF-e total (vNF) 1234,56 is not an amount as an NF-e writes it',
    ],
    ['with a negative total', authorised.replace('<vNF>1234.56', '<vNF>-5.00'), 'the NF-e total (vNF) -5.00'],
    ['without a total', authorised.replace(/<vNF>[^<]*<\/vNF>/, ''), 'no total (total/ICMSTot/vNF)'],
  ])('refuses an NF-e %s', (_name, text, reason) => {
    const verdict = check(text);
    expect(verdict.ok).toBe(false);
    expect(!verdict.ok && verdict.reason).toContain(reason);
  });

  it('refuses bytes that are not UTF-8 and UTF-16 files', () => {
    const latin1 = Buffer.from(authorised.replace('Distribuidora', 'Distribuição'), 'latin1');
    expect(check(latin1)).toMatchObject({ ok: false, reason: expect.stringContaining('not valid UTF-8') });
    expect(check(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(authorised, 'utf16le')]))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('UTF-16'),
    });
  });

  it('refuses a file over the size cap before parsing it', () => {
    const big = Buffer.alloc(maximumNfeBytes + 1, 0x20);
    expect(check(big)).toMatchObject({ ok: false, reason: expect.stringContaining('at most 1048576') });
  });
});

describe('the NF-e recipient', () => {
  it('is read from dest: its CNPJ or CPF without punctuation, and its name; none for a foreign buyer', () => {
    expect(check(authorised)).toMatchObject({
      ok: true,
      recipient: { document: '00360305000104', name: 'Comércio Exemplo Ltda' },
    });
    const person = authorised.replace('<CNPJ>00360305000104</CNPJ>', '<CPF>52998224725</CPF>');
    expect(check(person)).toMatchObject({ ok: true, recipient: { document: '52998224725' } });
    const foreign = authorised.replace('<CNPJ>00360305000104</CNPJ>', '<idEstrangeiro>AB1234</idEstrangeiro>');
    const read = check(foreign);
    expect(read.ok && read.recipient).toBeUndefined();
  });

  it('refuses a model-55 NF-e that names no recipient: the buyer could not be checked', () => {
    const reason =
      "the NF-e names no recipient (dest with a CNPJ, CPF or idEstrangeiro), which a model-55 NF-e always does: the order's buyer cannot be checked against it";
    const withoutDest = authorised.replace(/<dest>[\s\S]*<\/dest>/, '');
    expect(withoutDest).not.toContain('<dest');
    expect(check(withoutDest)).toEqual({ ok: false, reason });
    expect(check(authorised.replace('<CNPJ>00360305000104</CNPJ>', ''))).toEqual({ ok: false, reason });
  });

  it('reads the total (vNF) as written', () => {
    expect(check(authorised)).toMatchObject({ ok: true, total: '1234.56' });
  });

  it.each<[string, string, string, string | undefined]>([
    ['the same CNPJ, punctuated', '00360305000104', '00.360.305/0001-04', undefined],
    ["another branch of the buyer's company", '00360305000104', '00.360.305/0002-95', undefined],
    ['the same CPF', '52998224725', '529.982.247-25', undefined],
    ['an alphanumeric CNPJ in lower case', '12ABC34501DE35', '12.abc.345/01de-35', undefined],
    ['no buyer document', '00360305000104', ' ', undefined],
    [
      'another company',
      '00360305000104',
      '11.444.777/0001-61',
      "the NF-e is made out to CNPJ 00.360.305/0001-04 (Comércio Exemplo Ltda), not to the order's buyer, CNPJ 11.444.777/0001-61",
    ],
    [
      'a company where the buyer is a person',
      '00360305000104',
      '529.982.247-25',
      "the NF-e is made out to CNPJ 00.360.305/0001-04 (Comércio Exemplo Ltda), not to the order's buyer, CPF 529.982.247-25",
    ],
    [
      'another person, a document that is no valid one shown as written',
      '52998224725',
      '111',
      "the NF-e is made out to CPF 529.982.247-25 (Comércio Exemplo Ltda), not to the order's buyer, 111",
    ],
  ])('%s', (_case, recipient, buyer, expected) => {
    expect(recipientMismatch({ document: recipient, name: 'Comércio Exemplo Ltda' }, buyer)).toBe(expected);
  });
});

describe("sameTotalToTheCentavo: the NF-e's total (vNF) and the order's, in exact decimals", () => {
  it.each<[string, string, boolean]>([
    ['2642.26', '2642.26', true],
    ['100.00', '100', true],
    ['2642.26', '2642.260', true],
    // Through a float, 1.005 is 1.00499… and 0.285 is 0.28499…: their centavos came out one short.
    ['1.01', '1.005', true],
    ['0.29', '0.285', true],
    ['1234.57', '1234.565', true],
    ['1.00', '1.005', true],
    ['0.28', '0.2849', true],
    ['0.29', '0.2849', false],
    ['0.28', '0.2851', false],
    ['1234.56', '1234.57', false],
    ['0.01', '2642.26', false],
    ['5.00', '-5', false],
  ])('vNF %s, order total %s: %s', (invoiceTotal, orderTotal, same) => {
    expect(sameTotalToTheCentavo(invoiceTotal, orderTotal)).toBe(same);
  });
});
