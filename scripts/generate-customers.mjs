// Writes N realistic customers, the same every run: individuals and companies (some with an
// alphanumeric CNPJ), several addresses, groups and price tags, CEPs from samples/ceps.json.
// Usage: node scripts/generate-customers.mjs N [FILE] [--format csv|excel|json|ndjson] [--start K]  (no FILE: stdout)
//   csv: comma, UTF-8, LF. excel: as pt-BR Excel saves "CSV" (semicolons, Windows-1252, CRLF).
import { generatorOutput, outputPathFrom } from './generator-output.mjs';
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const count = Number(args[0] ?? 10);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const format = option('--format', 'csv');
const start = Number(option('--start', '1'));
const output = generatorOutput(outputPathFrom(args.slice(1), ['--format', '--start']));
if (!Number.isInteger(count) || count < 0 || !['csv', 'excel', 'json', 'ndjson'].includes(format)) {
  console.error('usage: node scripts/generate-customers.mjs N [FILE] [--format csv|excel|json|ndjson] [--start K]');
  process.exit(2);
}
const ceps = JSON.parse(readFileSync(new URL('../samples/ceps.json', import.meta.url), 'utf8')).filter(
  (entry) => entry.street && entry.quarter,
);

const firstNames = [
  'João',
  'Maria',
  'José',
  'Ana',
  'Antônio',
  'Francisca',
  'Luís',
  'Conceição',
  'Sérgio',
  'Cláudia',
  'Fábio',
  'Lúcia',
];
const lastNames = [
  'Silva',
  'Conceição',
  'Araújo',
  'Gonçalves',
  'Magalhães',
  'Simões',
  'Assunção',
  'Brandão',
  'Galvão',
  'Câmara',
];
const companies = [
  'Distribuidora',
  'Comércio de Ferragens',
  'Materiais Elétricos',
  'Atacadão',
  'Construções',
  'Mercantil',
];
const groups = ['Atacado', 'Sul', 'Sudeste', 'Nordeste', 'VIP'];
const tags = ['Atacado', 'Varejo', 'Promocional'];

const check = (values, weights) => {
  const rest = values.reduce((sum, value, index) => sum + value * weights[index], 0) % 11;
  return rest < 2 ? 0 : 11 - rest;
};
function cpf(index) {
  const base = String(100000000 + ((index * 7919) % 899999999))
    .split('')
    .map(Number);
  const first = check(base, [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const digits = [...base, first, check([...base, first], [11, 10, 9, 8, 7, 6, 5, 4, 3, 2])].join('');
  return `${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6, 9)}-${digits.slice(9)}`;
}
function cnpj(index, alphanumeric) {
  // Base 36 keeps alphanumeric roots unique for any N; the numeric ones step by a prime, unique below 89,999,999.
  const root = alphanumeric
    ? `${'ABCDEFGHJK'[index % 10]}${index.toString(36).toUpperCase().padStart(7, '0')}`
    : String(10000000 + ((index * 104729) % 89999999));
  const chars = `${root}0001`.split('').map((character) => character.charCodeAt(0) - 48);
  const first = check(chars, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = check([...chars, first], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const text = `${root}0001${first}${second}`;
  return `${text.slice(0, 2)}.${text.slice(2, 5)}.${text.slice(5, 8)}/${text.slice(8, 12)}-${text.slice(12)}`;
}
const ddds = ['11', '21', '31', '41', '51', '61', '71', '81', '85', '92'];

function customer(index) {
  const company = index % 3 === 0;
  const first = firstNames[index % firstNames.length];
  const last = lastNames[(index * 7) % lastNames.length];
  const cep = ceps[index % ceps.length];
  const record = {
    documentType: company ? 'cnpj' : 'cpf',
    document: company ? cnpj(index, index % 15 === 0) : cpf(index),
    name: company ? `${companies[index % companies.length]} ${last} Ltda` : `${first} ${last}`,
    tradingName: company ? `${last} ${companies[index % companies.length]}` : undefined,
    contactName: company ? `${first} ${last}` : undefined,
    username: `cliente${index}@${company ? 'empresa' : 'email'}.com.br`,
    phone: `${ddds[index % ddds.length]}9${String(80000000 + ((index * 31) % 19999999))}`,
    password: `Senha#${1000 + (index % 9000)}`,
    stateRegistration: company ? String(100000000 + index) : undefined,
    paysIcms: company,
    customerRegistrationAddress: {
      zipcode: cep.cep,
      number: String(10 + (index % 990)),
      complement: index % 4 === 0 ? `Sala ${index % 50}` : undefined,
    },
    customerGroupList: [groups[index % groups.length], ...(index % 4 === 0 ? ['VIP'] : [])].filter(
      (group, position, list) => list.indexOf(group) === position,
    ),
    priceRuleTags: index % 2 === 0 ? [tags[index % tags.length]] : undefined,
  };
  if (index % 5 === 0) {
    const other = ceps[(index * 3 + 1) % ceps.length];
    record.addressList = [
      {
        zipcode: cep.cep,
        number: record.customerRegistrationAddress.number,
        principal: true,
        addressType: company ? 'BUSINESS' : 'RESIDENTIAL',
      },
      { zipcode: other.cep, number: String(1 + (index % 300)), principal: false, addressType: 'BUSINESS' },
    ];
  }
  return record;
}

const columns = [
  'documentType',
  'document',
  'name',
  'tradingName',
  'contactName',
  'username',
  'phone',
  'password',
  'stateRegistration',
  'paysIcms',
  'customerRegistrationAddress.zipcode',
  'customerRegistrationAddress.number',
  'customerRegistrationAddress.complement',
  'addressList.0.zipcode',
  'addressList.0.number',
  'addressList.0.principal',
  'addressList.0.addressType',
  'addressList.1.zipcode',
  'addressList.1.number',
  'addressList.1.principal',
  'addressList.1.addressType',
  'customerGroupList',
  'priceRuleTags',
];
const at = (record, path) =>
  path.split('.').reduce((value, part) => (value === null || value === undefined ? undefined : value[part]), record);
const excel = format === 'excel';
const delimiter = excel ? ';' : ',';
const cell = (value) => {
  if (value === undefined || value === null) return '';
  const text = Array.isArray(value)
    ? value.join('|')
    : typeof value === 'boolean'
      ? excel
        ? value
          ? 'sim'
          : 'não'
        : String(value)
      : String(value);
  return /[",;\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};
const newline = excel ? '\r\n' : '\n';
const encode = (text) => (excel ? Buffer.from(text, 'latin1') : text);

let buffer = format === 'csv' || excel ? columns.join(delimiter) + newline : format === 'json' ? '[\n' : '';
for (let index = start; index < start + count; index++) {
  const record = customer(index);
  if (format === 'json')
    buffer += `${index > start ? ',\n' : ''}${JSON.stringify(record, null, 2).replace(/^/gm, '  ')}`;
  else if (format === 'ndjson') buffer += `${JSON.stringify(record)}\n`;
  else buffer += columns.map((column) => cell(at(record, column))).join(delimiter) + newline;
  if (buffer.length > 1 << 16) {
    await output.write(encode(buffer));
    buffer = '';
  }
}
if (format === 'json') buffer += count > 0 ? '\n]\n' : ']\n';
await output.write(encode(buffer));
await output.end();
