import { checkerPlace, RecordChecker } from '../../bulk/validation-pass.js';
import { MoveSequence, type OrderMove } from '../../domain/order-stages.js';
import { fieldProblem, type RecordVerdict } from '../../domain/validation.js';
import type { InputRecord } from '../../io/input/open-input.js';
import { checkMove, type MoveCheckSetting, moveFields, type PreparedMove } from '../../orders/moves/move-input.js';

/** What judging a file of moves needs: checkMove's setting, with the line a warning is about. */
export interface MoveFileSetting extends Omit<MoveCheckSetting, 'warn'> {
  warn(field: string, message: string, line: number): void;
  /** Told of each move found valid (orders update notes what the moves leave to the orders' details). */
  valid?(move: PreparedMove): void;
}

/**
 * A fresh judge of an orders update file: each row's own checks, then the file's order of moves (a file that ships
 * an order and then marks it ready again is refused at the second row, naming the first), and one row per NF-e (a
 * key on two rows is a copy-paste slip the store would refuse on the second order, or a repeat). One ERP number
 * on two orders is a warning: the store takes it, and an ERP may bundle orders, but an export's fill-down does it
 * too, and each order would then point at the other's ERP order.
 */
export function newMoveChecker(setting: MoveFileSetting): RecordChecker<PreparedMove> {
  // Each row kept by its place in the file: a later row that disagrees with it makes it invalid too.
  const sequence = new MoveSequence<{ place: number; invoiceXml?: string }>();
  const keyLines = new Map<string, { line: number; order: string }>();
  const erpNumberLines = new Map<string, { line: number; order: string }>();
  const checker = new RecordChecker((record: InputRecord): RecordVerdict<PreparedMove> => {
    const move = moveOf(record.values);
    const verdict = checkMove(move, {
      baseDirectory: setting.baseDirectory,
      confinePaths: setting.confinePaths,
      nowMs: setting.nowMs,
      routes: setting.routes,
      defaultBranch: setting.defaultBranch,
      numberFromDetail: setting.numberFromDetail,
      warn: (field, message) => setting.warn(field, message, record.line),
    });
    if (!verdict.ok) return verdict;
    const key = verdict.value.values.invoiceKey;
    const first = key === undefined ? undefined : keyLines.get(key);
    if (key !== undefined && first !== undefined) {
      const field = move.invoiceXml ? 'invoiceXml' : 'invoiceKey';
      const whose = first.order === verdict.value.order ? 'this order' : `order ${first.order}`;
      const reason = `NF-e key ${key} is already on line ${first.line} (${whose}); an NF-e is sent once, for one order`;
      return { ok: false, problems: [fieldProblem(field, move[field] ?? '', reason)] };
    }
    const refused = sequence.follow(verdict.value, `line ${record.line}`);
    if (refused) return { ok: false, problems: [fieldProblem('action', verdict.value.action, refused)] };
    const { order, action, values } = verdict.value;
    const at = { place: checkerPlace(record), ...(move.invoiceXml ? { invoiceXml: move.invoiceXml } : {}) };
    const conflict = sequence.disagreement({ order, action, ...values }, `line ${record.line}`, at);
    if (conflict) {
      // An NF-e given as a file is named by its path, as the row wrote it; its key is in the reason.
      const field = conflict.field === 'invoiceKey' && move.invoiceXml ? 'invoiceXml' : conflict.field;
      for (const earlier of conflict.earlier.at) {
        const earlierField = conflict.field === 'invoiceKey' && earlier.invoiceXml ? 'invoiceXml' : conflict.field;
        const written = earlierField === 'invoiceXml' ? (earlier.invoiceXml as string) : conflict.earlier.value;
        checker.invalidateEarlier(earlier.place, fieldProblem(earlierField, written, conflict.earlier.reason));
      }
      return { ok: false, problems: [fieldProblem(field, move[field] ?? conflict.value, conflict.reason)] };
    }
    if (key !== undefined) keyLines.set(key, { line: record.line, order: verdict.value.order });
    const erpNumber = verdict.value.values.erpNumber;
    if (erpNumber !== undefined && erpNumber !== '') {
      const earlier = erpNumberLines.get(erpNumber);
      if (earlier === undefined) erpNumberLines.set(erpNumber, { line: record.line, order: verdict.value.order });
      else if (earlier.order !== verdict.value.order)
        setting.warn(
          'erpNumber',
          `${erpNumber} is also order ${earlier.order}'s, on line ${earlier.line}: two orders under one ERP number (sent as given; check the export if they are not one ERP order)`,
          record.line,
        );
    }
    setting.valid?.(verdict.value);
    return verdict;
  });
  return checker;
}

/** The move a row holds: its text cells, an empty cell absent. */
function moveOf(values: Record<string, unknown>): Partial<OrderMove> {
  const move: Record<string, string> = {};
  for (const field of moveFields) {
    const value = values[field];
    if (value !== undefined && value !== null && String(value) !== '') move[field] = String(value);
  }
  return move as Partial<OrderMove>;
}
