/**
 * The names of the files b2bctl writes orders to, one grammar for every writer (`orders poll --out-dir`, `webhook
 * listen --fetch-orders`): an ERP reading both folders parses one scheme, and a third writer has no second one to
 * copy. Every character of an id or a number but letters, digits, `_` and `.` (and `-` where it separates nothing) is
 * written %XX, its UTF-8 bytes: so no name climbs out of its folder (`../x`) and no two orders share a file. The
 * lossy `_` for every other character gave `A-1` and `A_1` one file: one order overwrote the other, exit 0, and the
 * cursor went past both (a user test). An id or a number is named as one order is (order-keys.ts): `"000007"` and `7`
 * are one order, and a store spelling it both ways gave its versions two names (`000007-…` and `7-…`), which an ERP
 * grouping an order's files by the name's id read as two orders (a user test).
 */
import { orderIdAsRoutesTakeIt } from './order-keys.js';

/** What names one version of an order, as `orders poll --out-dir` writes each. */
export interface OrderVersionNaming {
  orderNumber?: string | number;
  lastUpdated: string;
}

/**
 * The file of an order. Without `version`, `ID.json`: the order itself, whose latest version `--fetch-orders` keeps.
 * With it, `ID-NUMBER-LASTUPDATED.json` (`217-100217-20261127T101500123Z.json`): one version, the id the moves and
 * `orders get` take, the number people see, and the instant compacted so the name is valid on every file system. An
 * order that shows no number leaves its place empty (`217--20261127T101500123Z.json`): the id and the instant keep
 * the name unique, and a reader splitting the name at `-` finds no number rather than the id taken for one. There a
 * `-` of the id or the number is written %2D, so the split gives each place back whole (`A-1` with no number and `A`
 * numbered `1-` would otherwise both be `A-1--…`).
 */
export function orderFileName(id: string | number, version?: OrderVersionNaming): string {
  const order = String(orderIdAsRoutesTakeIt(id));
  if (version === undefined) return `${namePart(order, /[\w.-]/)}.json`;
  const instant = new Date(Date.parse(version.lastUpdated)).toISOString().replace(/[-:]/g, '').replace('.', '');
  const number =
    version.orderNumber === undefined ? '' : namePart(String(orderIdAsRoutesTakeIt(version.orderNumber)), /[\w.]/);
  return `${namePart(order, /[\w.]/)}-${number}-${instant}.json`;
}

/** `value` with every character `kept` does not match written %XX; a value of dots alone (a folder's name) too. */
function namePart(value: string, kept: RegExp): string {
  const escaped = [...value]
    .map((character) =>
      kept.test(character)
        ? character
        : [...new TextEncoder().encode(character)]
            .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
            .join(''),
    )
    .join('');
  return /^\.+$/.test(escaped) ? escaped.replaceAll('.', '%2E') : escaped;
}
