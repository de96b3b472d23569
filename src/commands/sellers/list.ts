import type { Context } from '../../context.js';
import { createRecordWriter, type RecordLayout } from '../../io/output/record-writer.js';
import { permissionCodes, permissionFlags, permissionSummary, type SalesRep } from '../../domain/sales-rep.js';
import { listAllSellers, listSellers } from '../../platform/sellers.js';

export interface ListSellersOptions {
  email?: string;
  limit?: number;
  offset?: number;
  all: boolean;
}

/** Page size of --all without --limit: the listing has no ceiling, so few large pages mean few requests. */
export const allPagesPageSize = 500;

export const salesRepLayout: RecordLayout<SalesRep> = {
  table: [
    { header: 'EMAIL', value: (rep) => rep.username },
    { header: 'DOCUMENT', value: (rep) => rep.document },
    { header: 'CODE', value: (rep) => rep.attendantCode || '-' },
    { header: 'PROFILE', value: (rep) => rep.profile?.name ?? '-' },
    { header: 'RESTRICTED', value: (rep) => (rep.restrictedCustomers ? 'yes' : 'no') },
    { header: 'PERMISSIONS', value: permissionSummary },
  ],
  csv: [
    'id',
    'username',
    'document',
    ...permissionFlags,
    'attendantCode',
    'allowedSellersId',
    'profile.id',
    'profile.code',
    'profile.name',
    'createdAt',
    'updatedAt',
  ],
};

/** Lists sales reps: one page, or with --all every page until the platform answers `[]`. */
export async function run(options: ListSellersOptions, context: Context): Promise<void> {
  const client = await context.platform();
  const format = context.outputFormat('json');
  const writer = createRecordWriter(format, context.io.stdout, salesRepLayout, {
    color: context.io.isStdoutTTY && context.globals.color,
  });
  const reps = options.all
    ? listAllSellers(client, {
        email: options.email,
        pageSize: options.limit ?? allPagesPageSize,
        offset: options.offset,
      })
    : await listSellers(client, { email: options.email, limit: options.limit, offset: options.offset });
  for await (const rep of reps) await writer.write(rep);
  const count = await writer.end();
  if (format !== 'table') return;
  if (count === 0) {
    context.log.info(
      `No sales reps found${options.email ? ` with an e-mail containing "${options.email}"` : ''}${options.offset ? ` from offset ${options.offset}` : ''}.`,
    );
  } else if (context.io.isStdoutTTY) {
    context.log.info(
      `${count} sales rep${count === 1 ? '' : 's'}. PERMISSIONS: ${permissionCodes.map(([, code, meaning]) => `${code} ${meaning}`).join(', ')}.`,
    );
  }
}
