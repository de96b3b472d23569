import type { Command } from 'commander';
import type { CommandExamples, Dispatch } from '../../command-kit/command-group.js';
import { UsageError } from '../../base/errors.js';
import {
  bulkFlags,
  fileOnlyFlagsGiven,
  inputFlags,
  type ParsedBulkFlags,
  type ParsedInputFlags,
} from '../../command-kit/shared-flags.js';
import type { CustomerAddressesOptions } from './addresses.js';
import type { CustomerCreateOptions } from './create.js';
import type { CustomerStatusOptions } from './status.js';
import { refuseFileOnlyFlags } from './one-customer-flags.js';
import type { FieldType } from '../../domain/customer-fields.js';
import type { CustomerUpdateOptions, CustomerUpdateTarget } from './update.js';
import type { CustomerValidateOptions } from './validate.js';

interface ValidateFlags extends ParsedInputFlags {
  update?: true;
}
interface CreateFlags extends ParsedBulkFlags {
  upsert?: true;
}
interface UpdateFlags extends ParsedBulkFlags {
  document?: string;
  set: string[];
}
type StatusFlags = ParsedBulkFlags;

/** `b2bctl customer validate|create|update|status|addresses`. */
export function register(program: Command, dispatch: Dispatch): void {
  const customer = program
    .command('customer')
    .summary('customers: validate, create, update, status, addresses')
    .description(
      "Customers from the ERP's files: a CSV (any usual encoding and delimiter), JSON, NDJSON or a workbook (.xlsx, .ods), with the ERP's own column names mapped once (--write-map, then --map). Every record is checked locally first (CPF and CNPJ check digits, CEP, phones, e-mail), and nothing is sent while any is invalid. The commands that send are bulk runs: paced, retried, reported beside the input and resumable (docs/bulk-runs.md).",
    );
  // The fields `customer update --help` lists come from the domain's field table, imported only on the way to
  // `customer update` (commander awaits this hook before the subcommand parses, --help included).
  let fieldsHelp = '';
  customer.hook('preSubcommand', async (_customer, subcommand) => {
    if (subcommand.name() === 'update') fieldsHelp = setFieldsHelp(await import('../../domain/customer-fields.js'));
  });
  inputFlags
    .addTo(
      customer
        .command('validate')
        .summary('check every customer record locally, printing every problem; sends nothing')
        .description(
          "Reads a customer file as customer create would (the same encodings, delimiters, workbooks and --map) and checks every record against the platform's rules: required fields, CPF and CNPJ check digits, CEP, phone and e-mail shapes, addresses. Every problem is printed as file:line, the field and what to do, and the exit code is 65 when any record is invalid. It sends nothing and needs no login, so it fits before a run, in a script or in a cron job's dry check. With --update it checks a file meant for customer update; --write-map saves the column map it proposes.",
        )
        .argument('<file>', 'CSV, JSON array or object, NDJSON, a workbook (.xlsx, .ods), or - for stdin')
        .option('--update', 'check the file as input to customer update (only the document is required)'),
    )
    .action((file: string, _flags: unknown, command: Command) => {
      const flags = command.opts<ValidateFlags>();
      return dispatch<CustomerValidateOptions>(command, async () => (await import('./validate.js')).run, {
        file,
        mode: flags.update === true ? 'update' : 'create',
        ...inputFlags.read(flags),
      });
    });
  bulkFlags
    .addTo(
      customer
        .command('create')
        .summary('create the customers of a file; nothing is sent while any record is invalid')
        .description(
          "Creates one customer on the platform per record of a CSV, JSON, NDJSON or workbook file, one request each, several in flight (--concurrency) and paced (--rate). The whole file is checked first, and nothing is sent while any record is invalid (--skip-invalid sends the valid ones). A customer whose document is already registered fails, or is updated with --upsert. The run writes a report beside the input (one row per record) and an errors file of the failed and invalid records in the input's own columns, and prints the command that feeds it back; an interrupted run prints the command that resumes it (--resume).",
        )
        .argument('<file>', 'CSV, JSON array or object, NDJSON, a workbook (.xlsx, .ods), or - for stdin')
        .option('--upsert', 'update a customer whose document is already registered, instead of failing'),
    )
    .action((file: string, _flags: unknown, command: Command) => {
      const flags = command.opts<CreateFlags>();
      return dispatch<CustomerCreateOptions>(command, async () => (await import('./create.js')).run, {
        file,
        upsert: flags.upsert === true,
        ...bulkFlags.read(flags),
      });
    });
  bulkFlags
    .addTo(
      customer
        .command('update')
        .summary('partial updates keyed by document: from a FILE, or one customer with --document and --set')
        .description(
          "Changes only the fields given, for customers found by their CPF or CNPJ: every column of a file beside the document, or one customer's fields with --document and --set FIELD=VALUE. A file is checked whole first and sent as a bulk run, paced, reported beside the input and resumable, as customer create; fields left empty are not sent, so nothing else of the customer changes (a registration address given in part keeps its stored complement, name and type, and its CEP and number when it gives neither: the stored record is read first). Use it for the ERP's daily changes (a new address, a group, a credit flag) rather than creating again.",
        )
        .argument(
          '[file]',
          'CSV, JSON, NDJSON, a workbook (.xlsx, .ods), or - for stdin; each record has a document and the fields to change',
        )
        .option('--document <doc>', 'the customer to update (with --set)')
        .option(
          '--set <field=value>',
          'a field to change, such as active=false or customerGroupList=Atacado|Sul (repeatable)',
          (value: string, previous: string[]) => [...previous, value],
          [] as string[],
        )
        .addHelpText('after', () => fieldsHelp),
    )
    .action((file: string | undefined, _flags: unknown, command: Command) => {
      const flags = command.opts<UpdateFlags>();
      const target = updateTarget(file, flags);
      if (target.file === undefined)
        refuseFileOnlyFlags(fileOnlyFlagsGiven(command), 'b2bctl customer update changes.csv');
      return dispatch<CustomerUpdateOptions>(command, async () => (await import('./update.js')).run, {
        ...target,
        ...bulkFlags.read(flags),
      });
    });
  bulkFlags
    .addTo(
      customer
        .command('status')
        .summary('activate or deactivate: DOC active|inactive, or a FILE with document and active columns')
        .description(
          'Activates or deactivates customers on the platform: one by its CPF or CNPJ and the state given, or a file with document and active columns, sent as a bulk run (checked first, paced, reported, resumable). Use it when the ERP blocks or releases a customer.',
        )
        .argument('<doc-or-file>', 'a CPF/CNPJ, or a file')
        .argument('[state]', 'active or inactive (with a document)'),
    )
    .action((target: string, state: string | undefined, _flags: unknown, command: Command) =>
      // Whether TARGET is one customer or a file is the verb's to decide: it refuses a FILE's flags for one customer.
      dispatch<CustomerStatusOptions>(command, async () => (await import('./status.js')).run, {
        target,
        state,
        fileOnlyFlags: fileOnlyFlagsGiven(command),
        ...bulkFlags.read(command.opts<StatusFlags>()),
      }),
    );
  customer
    .command('addresses')
    .summary("list a customer's addresses")
    .description(
      'Reads the addresses the platform holds for one customer, found by its CPF or CNPJ, and prints them as a table on a terminal or JSON when piped. It reads only. A document whose check digits are wrong is refused before any request.',
    )
    .argument('<doc>', 'the CPF or CNPJ')
    .action((document: string, _flags: unknown, command: Command) =>
      dispatch<CustomerAddressesOptions>(command, async () => (await import('./addresses.js')).run, { document }),
    );
}

/** The examples at the end of each command's help, by its path under the root. */
export const examples: CommandExamples = {
  customer: ['b2bctl customer validate clientes.csv', 'b2bctl customer create clientes.csv --dry-run'],
  'customer validate': [
    'b2bctl customer validate clientes.csv',
    'b2bctl customer validate clientes.csv --map erp-headers.json --delimiter ";"',
    'b2bctl customer validate changes.csv --update -o json',
  ],
  'customer create': [
    'b2bctl customer create clientes.csv',
    'b2bctl customer create clientes.csv --dry-run',
    'b2bctl customer create clientes.csv --profile prod --skip-invalid --rate 5',
    'b2bctl customer create clientes.csv --resume clientes.report-20261121-020000.csv',
  ],
  'customer update': [
    'b2bctl customer update changes.csv',
    'b2bctl customer update --document 529.982.247-25 --set phone=11987654321',
  ],
  'customer status': ['b2bctl customer status 529.982.247-25 inactive', 'b2bctl customer status states.csv'],
  'customer addresses': [
    'b2bctl customer addresses 529.982.247-25',
    'b2bctl customer addresses 12.345.678/0001-95 -o json',
  ],
};

/** `customer update` takes FILE, or `--document` with at least one `--set`: never both, never neither. */
function updateTarget(file: string | undefined, flags: UpdateFlags): CustomerUpdateTarget {
  if (file !== undefined) {
    if (flags.document !== undefined || flags.set.length > 0)
      throw new UsageError('Give either FILE, or --document with --set, not both.');
    return { file };
  }
  if (flags.document === undefined || flags.set.length === 0)
    throw new UsageError('Give a FILE of updates, or --document DOC with at least one --set FIELD=VALUE.');
  return { document: flags.document, set: flags.set };
}

const fieldTypeWords: Readonly<Record<FieldType, string>> = {
  string: 'text',
  boolean: 'true/false, sim/não, 1/0',
  integer: 'whole number',
  number: 'number',
  list: 'names split on |, such as Atacado|Sul',
};

/** The fields `customer update --set FIELD=VALUE` takes (every field of the update route but the key), by type. */
function setFieldsHelp({
  customerFieldPaths,
  customerFieldType,
}: typeof import('../../domain/customer-fields.js')): string {
  const byType = new Map<FieldType, string[]>();
  for (const path of customerFieldPaths.update) {
    const type = customerFieldType(path, 'update');
    if (path === 'document' || type === undefined) continue;
    byType.set(type, [...(byType.get(type) ?? []), path]);
  }
  const lines = [...byType].flatMap(([type, paths]) => wrapped(`${fieldTypeWords[type]}:`, paths));
  return ['', 'Fields --set takes (FIELD=VALUE, the value read like a CSV cell of that column):', ...lines].join('\n');
}

/** `  heading a, b, c` wrapped at 80 columns, continuation lines indented under the first name. */
function wrapped(heading: string, names: readonly string[]): string[] {
  const lines = [`  ${heading}`];
  for (const name of names) {
    const last = lines.length - 1;
    const candidate = `${lines[last]} ${name},`;
    if (candidate.length <= 80 || lines[last] === `  ${heading}`) lines[last] = candidate;
    else lines.push(`    ${name},`);
  }
  return lines.map((line, index) => (index === lines.length - 1 ? line.replace(/,$/, '') : line));
}
