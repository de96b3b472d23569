/**
 * Customers in tests: the customer routes' counter keys, the sandbox's stored customers and e-mail outbox,
 * and input to build files from (spare valid documents, generated customers).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Customer, OutboxEmail } from '../../src/sandbox/customers/store.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { freshWorkDir } from './cli.js';
import { runCommandLine } from './command-line.js';
import { repoRoot, resetCounts, sandboxJson } from './sandbox.js';

export const createRoute = 'POST /v1/customer';

export const updateRoute = 'PUT /v1/customer/:document';

export const statusRoute = 'PUT /v1/customer/updateStatus/:document/:active';

export const addressesRoute = 'GET /v1/customer/addresses/:document';

/** Every customer the sandbox holds, in creation order. */
export function storedCustomers(sandbox: RunningSandbox): Promise<Customer[]> {
  return sandboxJson<Customer[]>(sandbox, '/_sandbox/customers');
}

/** One stored customer by document (with or without punctuation). */
export function storedCustomer(sandbox: RunningSandbox, document: string): Promise<Customer> {
  return sandboxJson<Customer>(sandbox, `/_sandbox/customers/${encodeURIComponent(document)}`);
}

export function outbox(sandbox: RunningSandbox): Promise<OutboxEmail[]> {
  return sandboxJson<OutboxEmail[]>(sandbox, '/_sandbox/outbox');
}

/** The documents of a sample CSV (second column, no quoting in the samples), in file order. */
export function sampleDocuments(text: string, delimiter = ','): string[] {
  return text
    .split(/\r?\n/)
    .slice(1)
    .filter((line) => line !== '')
    .map((line) => line.split(delimiter)[1] as string);
}

/** The customer groups of the store settings, as a linked customer shows them. */
export const groups = {
  atacado: { id: 1, name: 'Atacado', externalId: 'GRP-ATACADO' },
  sul: { id: 2, name: 'Sul', externalId: 'GRP-SUL' },
  sudeste: { id: 3, name: 'Sudeste', externalId: 'GRP-SUDESTE' },
  nordeste: { id: 4, name: 'Nordeste', externalId: 'GRP-NORDESTE' },
  vip: { id: 5, name: 'VIP', externalId: 'GRP-VIP' },
} as const;

/** The price tags of the store settings, as a linked customer shows them. */
export const priceTags = {
  atacado: { id: 1, name: 'Atacado' },
  varejo: { id: 2, name: 'Varejo' },
  promocional: { id: 3, name: 'Promocional' },
} as const;

/** A small valid create file's header and rows, for tests that build their own input. */
export const createHeader =
  'documentType,document,name,username,phone,password,customerRegistrationAddress.zipcode,customerRegistrationAddress.number';

/** Valid individuals that no sample uses: CPF, e-mail. */
export const spareCpfs = [
  '529.982.247-25',
  '111.444.777-35',
  '935.411.347-80',
  '714.602.380-01',
  '248.438.034-80',
  '123.456.789-09',
] as const;

/** Customers from scripts/generate-customers.mjs, as the bytes it writes (valid, unique documents and e-mails). */
export function generateCustomers(
  count: number,
  format: 'csv' | 'excel' | 'json' | 'ndjson' = 'csv',
  start = 1,
): Buffer {
  return execFileSync(
    process.execPath,
    [join(repoRoot, 'scripts', 'generate-customers.mjs'), String(count), '--format', format, '--start', String(start)],
    {
      maxBuffer: 1 << 30,
    },
  );
}

/** A `customer create` file of the same two customers (a CPF, then a CNPJ), each with a CEP and a number. */
export const twoCustomersFile = [
  'documentType,document,name,username,phone,password,customerRegistrationAddress.zipcode,customerRegistrationAddress.number',
  'cpf,111.444.777-35,A,a@x.com.br,11987654321,Senha#123,01310-100,1',
  'cnpj,11.222.333/0001-81,B,b@x.com.br,11987654321,Senha#123,01310-100,2',
  '',
].join('\n');

/**
 * A `customer update` and a `customer status` file of two customers (a CPF, then a CNPJ), each with its verb and the
 * scripted platform's route its rows are sent to: for tests of a bulk run stopped at its first answer.
 */
export const twoCustomerChangeFiles: [verb: string, file: string, route: string][] = [
  ['update', 'document,phone\n111.444.777-35,11987654321\n11.222.333/0001-81,11987654321\n', 'PUT /v1/customer/*'],
  ['status', 'document,active\n111.444.777-35,false\n11.222.333/0001-81,false\n', 'PUT /v1/customer/updateStatus/*'],
];

/** A customers file's header (`;`) whose registration address has a complement, a type and a name. */
export const fullAddressHeader =
  'documentType;document;name;username;phone;password;customerRegistrationAddress.zipcode;customerRegistrationAddress.number;customerRegistrationAddress.complement;customerRegistrationAddress.addressType;customerRegistrationAddress.name';

/**
 * Creates on SANDBOX, with CONFIGDIR's profile, a company whose registration address has a complement, a type and a
 * name; its folder, the sandbox's request counts cleared.
 */
export async function createdWithFullAddress(
  sandbox: RunningSandbox,
  configDir: string,
  document: string,
  email: string,
): Promise<string> {
  const folder = freshWorkDir();
  writeFileSync(
    join(folder, 'clientes.csv'),
    `${fullAddressHeader}\r\ncnpj;${document};Empresa Ltda;${email};(11) 3333-0000;Senha#1;01310-100;100;Galpão 3;BUSINESS;Matriz\r\n`,
  );
  const result = await runCommandLine(['customer', 'create', 'clientes.csv', '--no-input'], { configDir, cwd: folder });
  expect(result.code).toBe(0);
  await resetCounts(sandbox);
  return folder;
}

/**
 * `customer update --document DOCUMENT` setting the registration address's CEP and number alone, as argv: the ones
 * createdWithFullAddress stored (the same place, whose complement is kept).
 */
export function zipcodeAndNumberUpdate(document: string): string[] {
  return [
    'customer',
    'update',
    '--document',
    document,
    '--set',
    'customerRegistrationAddress.zipcode=01310-100',
    '--set',
    'customerRegistrationAddress.number=100',
  ];
}
