import type { Command } from 'commander';
import type { Dispatch } from '../../cli/command-group.js';
import { addExamples } from '../../cli/examples.js';
import { UsageError } from '../../errors.js';
import {
  inputFlagsOf,
  type ParsedInputFlags,
  type ParsedSendFlags,
  sendFlagsOf,
  withInputOptions,
  withSendOptions,
} from '../../cli/shared-flags.js';
import type { CustomerAddressesOptions } from './addresses.js';
import type { CustomerCreateOptions } from './create.js';
import type { CustomerStatusOptions } from './status.js';
import type { CustomerUpdateOptions, CustomerUpdateTarget } from './update.js';
import type { CustomerValidateOptions } from './validate.js';

interface ValidateFlags extends ParsedInputFlags {
  update?: true;
}
interface CreateFlags extends ParsedInputFlags, ParsedSendFlags {
  upsert?: true;
}
interface UpdateFlags extends ParsedInputFlags, ParsedSendFlags {
  document?: string;
  set: string[];
}
type StatusFlags = ParsedInputFlags & ParsedSendFlags;

/** `b2bctl customer validate|create|update|status|addresses`. */
export function register(program: Command, dispatch: Dispatch): void {
  const customer = program.command('customer').description('customers: validate, create, update, activate, addresses');
  withInputOptions(
    customer
      .command('validate')
      .description('check every customer record locally, printing every problem; sends nothing')
      .argument('<file>', 'CSV, JSON array or object, NDJSON, or - for stdin')
      .option('--update', 'check the file as input to customer update (only the document is required)'),
  ).action((file: string, _flags: unknown, command: Command) => {
    const flags = command.opts<ValidateFlags>();
    return dispatch<CustomerValidateOptions>(command, async () => (await import('./validate.js')).run, {
      file,
      mode: flags.update === true ? 'update' : 'create',
      ...inputFlagsOf(flags),
    });
  });
  withSendOptions(
    withInputOptions(
      customer
        .command('create')
        .description('create the customers of a file; nothing is sent while any record is invalid')
        .argument('<file>', 'CSV, JSON array or object, NDJSON, or - for stdin')
        .option('--upsert', 'update a customer whose document is already registered, instead of failing'),
    ),
  ).action((file: string, _flags: unknown, command: Command) => {
    const flags = command.opts<CreateFlags>();
    return dispatch<CustomerCreateOptions>(command, async () => (await import('./create.js')).run, {
      file,
      upsert: flags.upsert === true,
      ...inputFlagsOf(flags),
      ...sendFlagsOf(flags),
    });
  });
  withSendOptions(
    withInputOptions(
      customer
        .command('update')
        .description('partial updates keyed by document: from a FILE, or one customer with --document and --set')
        .argument('[file]', 'CSV, JSON, NDJSON, or - for stdin; each record has a document and the fields to change')
        .option('--document <doc>', 'the customer to update (with --set)')
        .option(
          '--set <field=value>',
          'a field to change, such as active=false or customerGroupList=Atacado|Sul (repeatable)',
          (value: string, previous: string[]) => [...previous, value],
          [] as string[],
        ),
    ),
  ).action((file: string | undefined, _flags: unknown, command: Command) => {
    const flags = command.opts<UpdateFlags>();
    return dispatch<CustomerUpdateOptions>(command, async () => (await import('./update.js')).run, {
      ...updateTarget(file, flags),
      ...inputFlagsOf(flags),
      ...sendFlagsOf(flags),
    });
  });
  withSendOptions(
    withInputOptions(
      customer
        .command('status')
        .description('activate or deactivate: DOC active|inactive, or a FILE with document and active columns')
        .argument('<doc-or-file>', 'a CPF/CNPJ, or a file')
        .argument('[state]', 'active or inactive (with a document)'),
    ),
  ).action((target: string, state: string | undefined, _flags: unknown, command: Command) => {
    const flags = command.opts<StatusFlags>();
    return dispatch<CustomerStatusOptions>(command, async () => (await import('./status.js')).run, {
      target,
      state,
      ...inputFlagsOf(flags),
      ...sendFlagsOf(flags),
    });
  });
  customer
    .command('addresses')
    .description("list a customer's addresses")
    .argument('<doc>', 'the CPF or CNPJ')
    .action((document: string, _flags: unknown, command: Command) =>
      dispatch<CustomerAddressesOptions>(command, async () => (await import('./addresses.js')).run, { document }),
    );

  addExamples(program, {
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
  });
}

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
