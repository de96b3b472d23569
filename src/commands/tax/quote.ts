import { type Context, stdoutStyle } from '../../context.js';
import type { InputFlags } from '../../bulk/flags.js';
import { createRecordWriter, type RecordLayout } from '../../io/output/record-writer.js';
import { hiddenColumnsNote, terminalColumns } from '../../io/output/table.js';
import { wordWrap } from '../../lib/word-wrap.js';
import type { FederativeUnit } from '../../domain/brazil-codes.js';
import { taxTotals } from '../../domain/tax/compute.js';
import type { ItemTaxes, TaxItem } from '../../domain/tax/terms.js';
import type { BuyerKind } from '../../domain/tax/rules.js';
import { quoteItems } from '../../tax/quote-items.js';
import { readTaxItems, readTaxTable } from '../../tax/table-file.js';

export interface TaxQuoteOptions {
  rules: string;
  from: FederativeUnit;
  to: FederativeUnit;
  buyer: BuyerKind;
  /** `--item`, already checked. */
  items: TaxItem[];
  /** `--items FILE`. */
  itemsFile?: string;
  input: InputFlags;
}

const money = (value: string | undefined) => value ?? '-';

/** The CSV columns of an item's amounts and rates, after its sku and NCM. */
const amountColumns = [
  'merchandise',
  'ipi.base',
  'ipi.rate',
  'ipi.value',
  'icms.base',
  'icms.rate',
  'icms.value',
  'icmsSt.base',
  'icmsSt.mva',
  'icmsSt.rate',
  'icmsSt.value',
  'difal.base',
  'difal.rate',
  'difal.value',
  'fcp.base',
  'fcp.rate',
  'fcp.value',
  'added',
];

/** An item's taxes with the sale they were computed for: a CSV kept apart says which states and buyer. */
type QuotedItem = ItemTaxes & { from?: string; to?: string; buyer?: string };

export const itemTaxesLayout: RecordLayout<QuotedItem> = {
  table: [
    { header: 'ITEM', value: (item) => item.sku ?? item.ncm, keepWhole: true, plannedWidth: 10 },
    { header: 'MERCHANDISE', value: (item) => item.merchandise, plannedWidth: 11 },
    // On a narrow terminal the taxes that apply to fewer items go first (FCP, DIFAL, ICMS-ST), rather than cutting
    // the item or an amount: the totals line below the table still gives every tax.
    { header: 'IPI', value: (item) => item.ipi.value, plannedWidth: 8, dropRank: 1 },
    { header: 'ICMS', value: (item) => item.icms.value, plannedWidth: 8 },
    { header: 'ICMS-ST', value: (item) => money(item.icmsSt?.value), plannedWidth: 8, dropRank: 2 },
    { header: 'DIFAL', value: (item) => money(item.difal?.value), plannedWidth: 8, dropRank: 3 },
    { header: 'FCP', value: (item) => money(item.fcp?.value), plannedWidth: 8, dropRank: 4 },
    { header: 'ADDED', value: (item) => item.added, plannedWidth: 8 },
  ],
  // The sale's states and buyer close each row, so a CSV kept apart says what it was computed for: one row per
  // item, the totals in -o json and the table's summary line.
  csv: ['sku', 'ncm', ...amountColumns, 'from', 'to', 'buyer'],
  // Every amount and rate is decimal text (exact): a pt-BR Excel reads it as a number only with a decimal comma.
  decimalText: amountColumns,
  // An NCM of chapters 01 to 09 opened as a number loses its zero (9012100), which the table refuses to read back.
  digitsText: ['sku', 'ncm'],
};

/** `tax quote`: the taxes of a cart computed offline from a tax table, as `tax serve` would answer them. */
export async function run(options: TaxQuoteOptions, context: Context): Promise<void> {
  const table = await readTaxTable(context, options.rules, options.input);
  const items = options.itemsFile
    ? [...options.items, ...(await readTaxItems(context, options.itemsFile, options.input))]
    : options.items;
  const quoted = quoteItems(table, items, options);
  const format = context.outputFormat('json');
  if (format === 'json') {
    context.io.stdout.write(
      `${JSON.stringify({ from: options.from, to: options.to, buyer: options.buyer, items: quoted, totals: taxTotals(quoted) }, null, 2)}\n`,
    );
    return;
  }
  let hiddenColumns: readonly string[] = [];
  const writer = createRecordWriter(format, context.io.stdout, itemTaxesLayout, {
    ...stdoutStyle(context),
    maxWidth: terminalColumns(context.io.stdout),
    onHiddenColumns: (headers) => (hiddenColumns = headers),
  });
  const sale = { from: options.from, to: options.to, buyer: options.buyer };
  for (const item of quoted) await writer.write({ ...item, ...sale });
  await writer.end();
  if (format === 'table') {
    const totals = taxTotals(quoted);
    const summary = `${options.from} → ${options.to}, ${options.buyer}: merchandise ${totals.merchandise}; IPI ${totals.ipi}, ICMS ${totals.icms}, ICMS-ST ${totals.icmsSt}, DIFAL ${totals.difal}, FCP ${totals.fcp}; taxes added ${totals.added}.`;
    const hidden =
      hiddenColumns.length > 0
        ? [hiddenColumnsNote(hiddenColumns, terminalColumns(context.io.stdout), '-o csv or -o json')]
        : [];
    // Notes are prose: wrapped at spaces to the terminal's width, not cut mid-word by the terminal.
    const width = terminalColumns(context.io.stderr);
    for (const note of [summary, ...hidden]) for (const line of wordWrap(note, width)) context.log.info(line);
  }
}
