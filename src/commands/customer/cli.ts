import type { Command } from 'commander';
import type { CommandExamples, Dispatch } from '../../command-kit/command-group.js';
import { UsageError } from '../../base/errors.js';
import { shellWord } from '../../lib/shell-word.js';
import {
  bulkFlags,
  fileOnlyFlagsGiven,
  inputFlags,
  type ParsedBulkFlags,
  type ParsedInputFlags,
} from '../../command-kit/shared-flags.js';
import type { CustomerAddressesOptions } from './addresses.js';
import type { CustomerCreateOptions } from './create.js';
import type { CustomerStatusOptions, CustomerStatusTarget } from './status.js';
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
      if (target.file === undefined) refuseFileFlags(command, 'b2bctl customer update changes.csv');
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
    .action(async (target: string, state: string | undefined, _flags: unknown, command: Command) => {
      const flags = command.opts<StatusFlags>();
      const statusOf = await statusTarget(target, state);
      if (!('file' in statusOf)) refuseFileFlags(command, 'b2bctl customer status states.csv');
      return dispatch<CustomerStatusOptions>(command, async () => (await import('./status.js')).run, {
        ...statusOf,
        ...bulkFlags.read(flags),
      });
    });
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

/**
 * One customer on the command line is one request: the flags that read, pace or report a FILE are refused, where
 * ignored they would look honoured (a `--report` never written, a `--min-records` never checked).
 */
function refuseFileFlags(command: Command, fileExample: string): void {
  const given = fileOnlyFlagsGiven(command);
  if (given.length === 0) return;
  const one = given.length === 1;
  throw new UsageError(
    `${given.join(', ')} ${one ? 'applies' : 'apply'} to a FILE of customers; one customer on the command line is one request, with no file to read, pace or report. Remove ${one ? 'it' : 'them'}, or give a file: ${fileExample}.`,
  );
}

/**
 * `customer status` takes `DOC active|inactive`, or a FILE of document,active rows. A bare document is a
 * forgotten state, not a file to open: say what is missing and what to type instead of "file not found". A file
 * with a state is not opened here (stdin cannot be read twice): the line says what to do whether or not it has the
 * active column.
 */
async function statusTarget(target: string, state: string | undefined): Promise<CustomerStatusTarget> {
  if (state !== undefined && !looksLikeDocument(target) && (await looksLikeFile(target))) {
    // A word the run would refuse on every row is refused here, before a command line is offered with it.
    await stateWord(state);
    throw new UsageError(
      `customer status ${target} ${state}: a file gives each customer's state in its active column, not on the command line. If ${target} has that column, drop "${state}": b2bctl customer status ${target}; if not, add it (${state} on each row) and do the same${plainListLine(target, state)}. For one customer, give the document: b2bctl customer status 529.982.247-25 ${state}.`,
    );
  }
  if (state !== undefined) return { document: target, active: await stateWord(state) };
  if (looksLikeDocument(target))
    throw new UsageError(
      `customer status ${target}: the state is missing; type b2bctl customer status ${target} active (or inactive).`,
    );
  return { file: target };
}

/**
 * The one line that gives a text file of documents alone (one column, as pasted from an e-mail) its active column,
 * the same state on each row, and sends it: a list of customers to block is the usual case. A workbook has no such
 * line: its column is added in the spreadsheet.
 */
function plainListLine(target: string, state: string): string {
  // Blank lines (a paste's last one) would be rows without a document; a last line without its line end, refused
  // by every CSV reader of b2bctl (decision 0029), gets one: GNU sed keeps it missing otherwise.
  const addColumn = `sed -e 's/\\r$//' -e '/^$/d' -e '1s/$/,active/' -e '2,$s/$/,${state}/' -e '$a\\'`;
  if (target === '-')
    return `; for a list of documents alone, one a line: ... | ${addColumn} | b2bctl customer status -`;
  if (!/\.(csv|txt)$/i.test(target)) return '';
  const withState = target.replace(/\.(csv|txt)$/i, `-${state}.csv`);
  return `; for a list of documents alone, one a line: ${addColumn} ${shellWord(target)} > ${shellWord(withState)} && b2bctl customer status ${shellWord(withState)}`;
}

/** stdin, a name with an extension (`clientes.csv`), or a path that exists: a file rather than a mistyped document. */
async function looksLikeFile(text: string): Promise<boolean> {
  if (text === '-' || /\.[A-Za-z][A-Za-z0-9]{0,4}$/.test(text)) return true;
  // Imported here: node:fs at the top would load on every customer command's --help.
  const { existsSync } = await import('node:fs');
  return existsSync(text);
}

/** A CPF or CNPJ as typed (digits with . / - punctuation, or an alphanumeric CNPJ), never a file name. */
function looksLikeDocument(text: string): boolean {
  return /^[\d./-]*\d[\d./-]*$/.test(text) || /^[0-9A-Z]{12}\d{2}$/.test(text.replace(/[./-]/g, ''));
}

/** The state word of `customer status DOC STATE`: active/inactive, their Portuguese words, or any boolean cell word. */
async function stateWord(word: string): Promise<boolean> {
  // Imported here, not at the top: every customer command's --help (and the root's) would load it.
  const { activeStateWords, parseActiveState } = await import('../../io/input/cell-values.js');
  const flag = parseActiveState(word);
  if (flag === undefined) throw new UsageError(`The state must be ${activeStateWords}; not "${word}".`);
  return flag;
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
