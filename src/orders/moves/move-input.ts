import { checkNfeDocument, type NfeRecipient } from '../../domain/nfe-document.js';
import { checkNfeAccessKey } from '../../domain/nfe-key.js';
import { type BodyPlaceholder, type OrderRoutes, placeholdersOf } from '../../domain/order-routes.js';
import { moveFieldProblems, type OrderAction, type OrderMove } from '../../domain/order-stages.js';
import { fieldProblem, type FieldProblem, type RecordVerdict } from '../../domain/validation.js';
import { type FieldCatalogue, kindsByField } from '../../io/input/record-shape.js';
import { orderKeyOf } from '../../domain/order-keys.js';
import type { TextKind } from '../../domain/spreadsheet-numbers.js';
import type { MoveValues } from '../../platform/order-moves.js';
import { readInvoiceFile } from './invoice-file.js';

/** A move checked locally and ready to send: the values its route's placeholders take. */
export interface PreparedMove {
  order: string;
  action: OrderAction;
  values: MoveValues;
  /** An invoice's NF-e file: who it is made out to, checked against the order's buyer before it is sent. */
  recipient?: NfeRecipient;
  /** An invoice's NF-e file: its total (vNF), compared with the order's total before it is sent. */
  invoiceTotal?: string;
}

/** What checking a move needs besides the move: where relative XML paths start, the time, the routes. */
export interface MoveCheckSetting {
  /** The folder `invoiceXml` paths are relative to (the file's; the working folder for a single command). */
  baseDirectory: string;
  /** True for a file's rows (unless --allow-paths): `invoiceXml` stays inside the base folder. */
  confinePaths?: boolean;
  nowMs: number;
  routes: OrderRoutes;
  /** `{branch}` of a move that names none: --branch, else the branch setting. */
  defaultBranch?: string;
  /** A note about a valid move (an NFC-e instead of an NF-e). */
  warn(field: string, message: string): void;
  /** How the user gives a move's fields: a file's columns (the default), or a single command's flags. */
  givenAs?: MoveFieldsGivenAs;
  /**
   * True when the order's detail is read before the move (the status check, of a single command or a file run): a
   * route's `{orderId}` then takes the number the detail shows, when none is given.
   */
  numberFromDetail?: boolean;
}

/** A file's columns (`orderId`) or a single command's flags (`--order-id`). */
export type MoveFieldsGivenAs = 'columns' | 'flags';

/** How to give a move's field, in the words of where it is given: `the orderId column`, `--order-id`. */
export function howToGive(field: 'orderId' | 'branch', givenAs: MoveFieldsGivenAs = 'columns'): string {
  if (givenAs === 'flags') return field === 'branch' ? '--branch or the branch setting' : '--order-id';
  return field === 'branch' ? 'the branch column, --branch or the branch setting' : 'the orderId column';
}

export const moveFields = [
  'order',
  'action',
  'erpNumber',
  'invoiceXml',
  'invoiceKey',
  'carrier',
  'trackingCode',
  'trackingUrl',
  'reason',
  'branch',
  'orderId',
] as const;

/** The codes among a move's fields (see TextKind): an order's ERP number, its NF-e key and its tracking code. */
const moveTextKinds: Readonly<Partial<Record<(typeof moveFields)[number], TextKind>>> = {
  erpNumber: 'code',
  invoiceKey: 'code',
  trackingCode: 'code',
};

/** The columns of an orders update file (rename an ERP's own with --map): every one is text. */
export const moveCatalogue: FieldCatalogue = {
  typeOf: (path) => ((moveFields as readonly string[]).includes(path) ? 'string' : undefined),
  textKindOf: kindsByField(moveTextKinds),
  knownPaths: moveFields,
  requiredColumns: ['order', 'action'],
};

/** Checks one move (its fields, its NF-e, what its route needs) and prepares the values its request carries. */
export function checkMove(move: Partial<OrderMove>, setting: MoveCheckSetting): RecordVerdict<PreparedMove> {
  const problems = moveFieldProblems(move);
  if (problems.length > 0) return { ok: false, problems };
  const action = move.action as OrderAction;
  const route = setting.routes[action];
  const used = new Set<string>([
    ...placeholdersOf(route.body),
    ...(route.path.match(/[A-Za-z][A-Za-z0-9]*(?=\})/g) ?? []),
  ]);
  const values: MoveValues = {
    // An order's id and number are whole numbers: `0372` (a cell a spreadsheet kept as text) is order 372, and its
    // moves go with those of `372`, in file order, not beside them as another order's.
    id: move.order === undefined ? undefined : orderKeyOf(move.order),
    orderId: move.orderId,
    branch: move.branch ?? setting.defaultBranch,
    erpNumber: move.erpNumber?.trim(),
    carrier: move.carrier?.trim(),
    trackingCode: move.trackingCode?.trim(),
    trackingUrl: move.trackingUrl,
    reason: move.reason?.trim(),
  };
  for (const name of ['orderId', 'branch'] as const)
    if (used.has(name) && !values[name] && !(name === 'orderId' && setting.numberFromDetail === true))
      problems.push(
        fieldProblem(
          name,
          '',
          `the ${action} route (${route.path}) needs {${name}}: give ${howToGive(name, setting.givenAs)}`,
        ),
      );
    // A route would read `.` or `..` as a folder, not as the value (moveFieldProblems says so of the order id).
    else if (used.has(name) && (values[name] === '.' || values[name] === '..'))
      problems.push(
        fieldProblem(name, values[name] as string, `${name} is not . or .., which a route would read as a folder`),
      );
  const invoice = action === 'invoice' ? prepareInvoice(move, values, used, setting) : undefined;
  if (invoice?.problems) problems.push(...invoice.problems);
  if (problems.length > 0) return { ok: false, problems };
  // Only what the route carries is kept (an XML as text and as base64 would double the spool for nothing), and the
  // id, order number and NF-e key, which a move is compared with the order's by.
  const kept: MoveValues = {};
  for (const name of Object.keys(values) as BodyPlaceholder[])
    if (values[name] !== undefined && (used.has(name) || name === 'id' || name === 'orderId' || name === 'invoiceKey'))
      kept[name] = values[name];
  const { recipient, total } = invoice ?? {};
  const value: PreparedMove = { order: values.id as string, action, values: kept };
  if (recipient) value.recipient = recipient;
  if (total !== undefined) value.invoiceTotal = total;
  return { ok: true, value };
}

/**
 * The invoice's key, and its XML as text and base64, from the NF-e file or the key alone, each checked; the NF-e
 * file's recipient and total.
 */
function prepareInvoice(
  move: Partial<OrderMove>,
  values: MoveValues,
  used: ReadonlySet<string>,
  setting: MoveCheckSetting,
): { problems?: FieldProblem[]; recipient?: NfeRecipient; total?: string } {
  const takesXml = used.has('invoiceXml') || used.has('invoiceXmlBase64');
  if (move.invoiceXml) {
    const file = readInvoiceFile(setting.baseDirectory, move.invoiceXml, setting.confinePaths === true);
    if (!file.ok) return { problems: [fieldProblem('invoiceXml', move.invoiceXml, file.reason)] };
    const document = checkNfeDocument(file.bytes, setting.nowMs);
    if (!document.ok) return { problems: [fieldProblem('invoiceXml', move.invoiceXml, document.reason)] };
    const key = move.invoiceKey?.replace(/\s/g, '');
    if (key && key !== document.key.key)
      return {
        problems: [
          fieldProblem('invoiceKey', move.invoiceKey ?? '', `not the key of ${move.invoiceXml} (${document.key.key})`),
        ],
      };
    for (const warning of document.warnings) setting.warn('invoiceXml', warning);
    values.invoiceKey = document.key.key;
    values.invoiceXml = document.xml;
    if (used.has('invoiceXmlBase64')) values.invoiceXmlBase64 = Buffer.from(document.xml).toString('base64');
    return { recipient: document.recipient, total: document.total };
  }
  const key = checkNfeAccessKey(move.invoiceKey ?? '', setting.nowMs);
  if (!key.ok) return { problems: [fieldProblem('invoiceKey', move.invoiceKey ?? '', key.reason)] };
  if (!used.has('invoiceKey') && takesXml)
    return {
      problems: [
        fieldProblem(
          'invoiceKey',
          move.invoiceKey ?? '',
          "this store's invoice route takes the XML: give the NF-e file (invoiceXml)",
        ),
      ],
    };
  for (const warning of key.warnings) setting.warn('invoiceKey', warning);
  values.invoiceKey = key.key.key;
  return {};
}
