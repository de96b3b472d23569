/**
 * The one validation vocabulary: what a rule says about a record, the platform's wording of a problem, and the one
 * path grammar for dot paths (`addressList.0.zipcode`). Customers, stock, the bulk engine and the sandbox all use it.
 */

/** One problem with one field of a record. */
export interface FieldProblem {
  /** The field as the record names it (a dot path; the wire name when a stock schema is given); empty for the record. */
  field: string;
  /** The value as received, as text; empty when absent. */
  value: string;
  /** One line: `Property [<field>] with value [<value>] does not pass validation (<reason>)`. */
  message: string;
}

/** A rule's verdict on a record: the value to send, or every problem found. */
export type RecordVerdict<T> = { ok: true; value: T } | { ok: false; problems: FieldProblem[] };

/** A verdict with more problems found by a check beyond the rule's: refused if there are any. */
export function withProblems<T>(verdict: RecordVerdict<T>, problems: readonly FieldProblem[]): RecordVerdict<T> {
  if (problems.length === 0) return verdict;
  return { ok: false, problems: verdict.ok ? [...problems] : [...verdict.problems, ...problems] };
}

/** The platform's 422 wording; the local checks add the reason in parentheses. */
export function validationMessage(field: string, value: string, reason?: string): string {
  const message = `Property [${field}] with value [${value}] does not pass validation`;
  return reason ? `${message} (${reason})` : message;
}

/** A problem in the platform's wording, with its field and value kept for reports. */
export function fieldProblem(field: string, value: string, reason?: string): FieldProblem {
  return { field, value, message: validationMessage(field, value, reason) };
}

/**
 * The path grammar: a dot path split into its segments, a list index (digits only) as a number.
 * `addressList.0.zipcode` → ['addressList', 0, 'zipcode']. `*` is not an index: it stays a name.
 */
export function pathSegments(path: string): (string | number)[] {
  return path.split('.').map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
}

/**
 * The value at a dot path (the path grammar, pathSegments) in a parsed answer or record, or undefined when a step is
 * missing: an `answers.*` setting's path, an output layout's column. A key the object holds whole is read as itself
 * first (`@odata.etag`, `custom.segment`: a user test had them printed empty, looked up as paths); an empty step
 * (`data..items`) is skipped; only a value's own keys are read, so `constructor` is no path into every object.
 */
export function valueAtPath(value: unknown, path: string): unknown {
  if (isObject(value) && Object.hasOwn(value, path)) return value[path];
  let current = value;
  for (const segment of pathSegments(path)) {
    if (segment === '') continue;
    if (!isObject(current) || !Object.hasOwn(current, segment)) return undefined;
    current = current[segment];
  }
  return current;
}

function isObject(value: unknown): value is Record<string | number, unknown> {
  return value !== null && typeof value === 'object';
}
