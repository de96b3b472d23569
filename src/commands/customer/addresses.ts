import { type Context, stdoutStyle } from '../../context.js';
import { checkDocument, documentAsSent } from '../../domain/documents.js';
import { validationMessage } from '../../domain/validation.js';
import { InputError } from '../../base/errors.js';
import { customerNotFound } from './customer-failures.js';
import { createRecordWriter } from '../../io/output/record-writer.js';
import { terminalColumns } from '../../io/output/table.js';
import { type AddressOut, customerAddresses, isUnknownDocument } from '../../platform/customers.js';
import type { ListingRecords } from '../../platform/answers/listing.js';
import { countOf } from '../../lib/plural.js';

export interface CustomerAddressesOptions {
  document: string;
}

/** Every field of a returned address, in the platform document's order (objects as their JSON). */
const addressColumns = [
  'id',
  'name',
  'zipcode',
  'street',
  'number',
  'complement',
  'quarter',
  'city',
  'state',
  'principal',
  'addressType',
  'farmerStateRegistration',
  'howToReachLocationDescription',
  'responsibleContact',
  'attributes',
  'dateCreated',
  'lastUpdated',
];

/** Lists a customer's addresses. */
export async function run(options: CustomerAddressesOptions, context: Context): Promise<void> {
  const check = checkDocument(options.document);
  if (!check.ok)
    throw new InputError(`${validationMessage('document', options.document, check.reason)}; nothing was sent.`, {
      field: 'document',
    });
  const client = await context.platform();
  let addresses: ListingRecords<AddressOut>;
  try {
    addresses = await customerAddresses(client, documentAsSent(options.document, check.normalized));
  } catch (error) {
    if (isUnknownDocument(error)) throw customerNotFound(options.document, error, 'paths.customerAddresses');
    throw error;
  }
  const format = context.outputFormat('json');
  const writer = createRecordWriter<AddressOut>(
    format,
    context.io.stdout,
    {
      table: [
        { header: 'ID', value: (address) => String(address.id ?? '') },
        { header: 'PRINCIPAL', value: (address) => (address.principal ? 'yes' : '') },
        { header: 'TYPE', value: (address) => String(address.addressType ?? '') },
        { header: 'ZIPCODE', value: (address) => String(address.zipcode ?? '') },
        {
          header: 'ADDRESS',
          value: (address) => [address.street, address.number, address.complement].filter(Boolean).join(', '),
        },
        { header: 'QUARTER', value: (address) => String(address.quarter ?? '') },
        { header: 'CITY', value: (address) => [address.city, address.state].filter(Boolean).join('/') },
      ],
      csv: addressColumns,
    },
    // Fitted to the terminal: the address is cut with `…` rather than the row wrapped (a pipe keeps it whole).
    { ...stdoutStyle(context), maxWidth: terminalColumns(context.io.stdout) },
  );
  for (const address of addresses.records) await writer.write(address);
  const count = await writer.end();
  // A `null` where an address belongs has nothing to show: left out and counted, as orders poll does.
  if (addresses.notRecords > 0)
    context.log.warn(
      `warning: ${countOf(addresses.notRecords, 'listed entries')} of customer ${options.document}'s addresses ${addresses.notRecords === 1 ? 'was' : 'were'} no address (null, or not a JSON object) and ${addresses.notRecords === 1 ? 'was' : 'were'} left out; b2bctl api shows the answer as it came.`,
    );
  if (count === 0 && addresses.notRecords === 0 && format === 'table')
    context.log.info(`Customer ${options.document} has no addresses.`);
}
