import { isDeepStrictEqual } from 'node:util';
import { InputError } from '../../base/errors.js';
import { fieldSpelledAs, proposeHeaderMap } from '../../domain/header-aliases.js';
import { inputName } from './byte-source.js';
import { shortText } from './header-messages.js';
import { UnreadKeys } from './json-keys.js';
import { nothingSent } from './nothing-sent.js';
import type { JsonValue } from './json-values.js';
import {
  type InputOptions,
  type InputRecord,
  invisibleProblems,
  type ReaderProblem,
  recordPlace,
} from './opened-input.js';
import { ambiguousNumber, type DecimalSeparator } from './cell-values.js';
import {
  defaultMaxListIndex,
  type CellReading,
  type FieldCatalogue,
  type FieldType,
  type HeaderMap,
  mappedPath,
  setPath,
  typedValue,
  unreadablePath,
} from './record-shape.js';
import { shortValue } from './row-shape-problems.js';
import type { UnreadData } from './unmapped-columns.js';

/*
 * The records of a JSON or NDJSON input: each object's keys read as fields (through `--map`), typed as a CSV cell of
 * that field would be; a value that is no object is a record with a problem.
 */

/** Repeated JSON keys warned about one by one; a file with 10,000 of them is not a wall of text. */
const maxDuplicateKeyWarnings = 10;

export async function* jsonRecords(
  values: AsyncIterable<JsonValue>,
  options: InputOptions,
): AsyncGenerator<InputRecord> {
  const file = options.displayName ?? inputName(options.path);
  const reading: KeyReading = {
    options,
    keys: new UnreadKeys(file, options),
    fields: new FieldLookup(options.catalogue),
    adopt: options.adoptHeaderMap,
  };
  let duplicateWarnings = 0;
  for await (const { line, value, column, element, duplicateKeys } of values) {
    const place = element === undefined ? {} : { column, element };
    const where = recordPlace({ line, ...place });
    for (const duplicate of duplicateKeys ?? []) {
      if (++duplicateWarnings > maxDuplicateKeyWarnings) break;
      const at = element === undefined ? String(duplicate.line) : where;
      options.warn(
        `warning: ${file}:${at}: key "${shortText(duplicate.key)}" appears twice in one object; the last one is read. Keep one.${duplicateWarnings === maxDuplicateKeyWarnings ? ' (Further repeated keys are not listed.)' : ''}`,
      );
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      yield {
        line,
        ...place,
        values: {},
        original: value,
        problems: [
          `expected a JSON object, found ${Array.isArray(value) ? 'an array' : shortText(JSON.stringify(value))}`,
        ],
      };
      continue;
    }
    const wrapped = wrappedList(value);
    if (wrapped !== undefined && !options.catalogue.typeOf(wrapped) && !hasKnownChildren(wrapped, options.catalogue))
      throw new InputError(
        `${file}:${where}: the records are inside "${shortText(wrapped)}" ({"${shortText(wrapped)}": [...]}); pass a file whose top level is the list itself: [{...}, {...}].`,
        { file, line, field: shortText(wrapped) },
      );
    const at = { file, where, line };
    const mayAdopt = reading.adopt !== undefined;
    if (mayAdopt) reading.keys.hold();
    let { record, unread, read, problems, empty } = readObject(value as Record<string, unknown>, at, reading);
    if (unread.length > 0 && (await adoptKeys(unread, read, reading))) {
      reading.keys.dropHeld();
      ({ record, unread, problems, empty } = readObject(value as Record<string, unknown>, at, reading));
    }
    if (mayAdopt) reading.keys.release();
    // A record with data under a key no field reads is refused before it is judged: nothing of the file is sent.
    if (unread.length > 0) throw reading.keys.refusal(unread);
    const invisible = invisibleProblems(record);
    yield {
      line,
      ...place,
      values: record,
      original: value,
      problems: problems.length > 0 ? [...problems, ...invisible] : invisible,
      ...(empty && { emptyFields: empty }),
    };
  }
  reading.keys.warnUnmatched();
}

/** What reading the keys of every record shares: the options, the keys no field reads and the map in force. */
interface KeyReading {
  options: InputOptions;
  keys: UnreadKeys;
  fields: FieldLookup;
  /** On a terminal or with `--write-map`, until used: makes the map that reads the keys (header-proposal.ts). */
  adopt: InputOptions['adoptHeaderMap'];
}

/**
 * On a terminal or with `--write-map`, at the first record holding data under keys no field reads: the map that
 * reads them, proposed and asked as for CSV columns, saved, and in force from this record on. Asked once, as CSV
 * asks once at its header; false when there is nobody to ask or the person declines.
 */
async function adoptKeys(
  unread: readonly UnreadData[],
  read: readonly string[],
  reading: KeyReading,
): Promise<boolean> {
  const adopt = reading.adopt;
  if (!adopt) return false;
  reading.adopt = undefined;
  const samples = new Map(unread.map((data) => [data.header, shortValue(data.value)]));
  const proposal = proposeHeaderMap([...samples.keys()], reading.options.catalogue.knownPaths, read);
  const map: HeaderMap = { ...reading.keys.headerMap, ...Object.fromEntries(proposal.mapped) };
  const adopted = await adopt(map, proposal, (header) => samples.get(header), 'key');
  if (!adopted) return false;
  reading.keys.headerMap = adopted;
  return true;
}

/** Where a record is: its file, its place after `file:`, its line. */
interface RecordAt {
  file: string;
  where: string;
  line: number;
}

/**
 * An object's keys read as fields, and the keys no field reads that hold data (in the object's order); `empty`, the
 * fields held as null or "" (left out of the record), when there are any.
 */
function readObject(
  value: Record<string, unknown>,
  at: RecordAt,
  reading: KeyReading,
): {
  record: Record<string, unknown>;
  unread: UnreadData[];
  read: string[];
  problems: ReaderProblem[];
  empty?: string[];
} {
  const { options, keys, fields } = reading;
  const record: Record<string, unknown> = {};
  const read: string[] = [];
  const problems: ReaderProblem[] = [];
  const typed = (inner: unknown, path: string, type: FieldType) =>
    typedAs(inner, { path, type, reading: fields.readingOf(path) }, options.decimal, problems);
  const nested: NestedReading = { at, reading, unread: [], moves: [] };
  const entries = Object.entries(value);
  const keyOfPath = new Map<string, { key: string; value: unknown }>();
  let empty: string[] | undefined;
  for (const [position, [key, inner]] of entries.entries()) {
    if (keys.leftOut(key, at.where)) continue;
    const path = fields.pathOf(mappedPath(keys.headerMap, key));
    const unreadable = unreadablePath(path, options.maxListIndex ?? defaultMaxListIndex);
    if (unreadable)
      throw new InputError(`${at.file}:${at.where}: key "${shortText(key)}": ${unreadable}.`, {
        file: at.file,
        line: at.line,
        field: shortText(key),
      });
    const kind = fields.kindOf(path);
    // The last field of an errors file that b2bctl wrote: feeding that file back is what it is for.
    if (path === 'error' && position === entries.length - 1 && kind === undefined) continue;
    if (kind === undefined) {
      const data = keys.unread(key, inner, at.where, at.line);
      if (data) nested.unread.push(data);
      continue;
    }
    read.push(path);
    if (inner === null || inner === '') {
      (empty ??= []).push(path);
      continue;
    }
    const earlier = keyOfPath.get(path);
    // Two keys of one record read as one field (`CPF` and `CNPJ` both mapped to document, `name` and `Name`): which
    // value would go is the file's key order, so neither goes, as a CSV with the column twice is refused.
    if (earlier !== undefined && !isDeepStrictEqual(earlier.value, inner))
      throw new InputError(
        `${at.file}:${at.where}: keys "${shortText(earlier.key)}" and "${shortText(key)}" both hold ${path}, with different values${nothingSent(options.sends)}. Keep one of them, or leave the other out with --ignore-column (or null in the --map).`,
        { file: at.file, line: at.line, field: path },
      );
    keyOfPath.set(path, { key, value: inner });
    // A field (`sku`) is read as it is; an object field (`customerRegistrationAddress`) has keys of its own.
    setPath(record, path, kind === 'object' ? nestedFields(inner, path, nested) : typed(inner, path, kind));
  }
  if (nested.moves.length === 0) return { record, unread: nested.unread, read, problems, empty };
  // A nested key --map moves elsewhere: set on a copy, never inside the objects the file's record holds.
  const moved = structuredClone(record);
  for (const { path, value: inner, type } of nested.moves) setPath(moved, path, typed(inner, path, type));
  return { record: moved, unread: nested.unread, read, problems, empty };
}

/** The paths past which the catalogue's answers are not remembered: a hostile file may hold millions of keys. */
const maxRememberedPaths = 10_000;

/** The catalogue's answers for the keys of one input, remembered: the same keys come back in every record. */
class FieldLookup {
  private readonly kinds = new Map<string, FieldType | 'object' | null>();
  private readonly spellings = new Map<string, string>();

  private readonly catalogue: FieldCatalogue;
  constructor(catalogue: FieldCatalogue) {
    this.catalogue = catalogue;
  }

  /** A field's type, `object` for an object field (`customerRegistrationAddress`), undefined for no field. */
  kindOf(path: string): FieldType | 'object' | undefined {
    let kind = this.kinds.get(path);
    if (kind === undefined) {
      kind = this.catalogue.typeOf(path) ?? (hasKnownChildren(path, this.catalogue) ? 'object' : null);
      if (this.kinds.size < maxRememberedPaths) this.kinds.set(path, kind);
    }
    return kind ?? undefined;
  }

  /** How a field's value is read where its type does not say (see CellReading); each catalogue's is a table lookup. */
  readingOf(path: string): CellReading | undefined {
    return this.catalogue.readingOf?.(path);
  }

  /** A key's field: the key itself, or a known field spelled in another case or spacing (`SKU`), as CSV headers. */
  pathOf(written: string): string {
    if (this.kindOf(written) !== undefined) return written;
    let spelled = this.spellings.get(written);
    if (spelled === undefined) {
      spelled = fieldSpelledAs(written, this.catalogue.knownPaths) ?? written;
      if (this.spellings.size < maxRememberedPaths) this.spellings.set(written, spelled);
    }
    return spelled;
  }
}

/**
 * ERP exports often quote numbers and booleans ("quantity": "5"); read them as a CSV cell of that field would be.
 * Text loses its padding as a CSV cell's does (`" 529.982.247-25 "` was sent in the URL as %20529…), but for a
 * field read as exact text (a password), sent exactly as written.
 */
function typedAs(
  value: unknown,
  { path, type, reading }: { path: string; type: FieldType; reading: CellReading | undefined },
  decimal: DecimalSeparator | undefined,
  problems: ReaderProblem[],
): unknown {
  if (typeof value !== 'string' || type === 'list') return value;
  // A quoted "1.000" is a thousand from an ERP that writes numbers the pt-BR way, and one from another: unless
  // --decimal says which, both readings are named (as for a CSV cell), which makes the record invalid.
  const ambiguous =
    decimal === undefined && (type === 'number' || type === 'integer') ? ambiguousNumber(path, value) : undefined;
  if (ambiguous !== undefined) problems.push(ambiguous);
  return typedValue(value, type, decimal ?? '.', reading);
}

/** The keys inside an object field (`customerRegistrationAddress`, `addressList`) being read. */
interface NestedReading {
  at: RecordAt;
  reading: KeyReading;
  unread: UnreadData[];
  /** Nested keys `--map` reads as another field: set once the record is built. */
  moves: { path: string; value: unknown; type: FieldType }[];
}

/**
 * An object field's value with its nested keys accounted for (`customerRegistrationAddress.bloco`, named by its
 * path): the same value when every key is a field, else a copy without the keys left out or moved by `--map`.
 */
function nestedFields(value: unknown, path: string, nested: NestedReading): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, index) => {
      const read = nestedFields(item, `${path}.${index}`, nested);
      if (read === item) return;
      copy ??= [...value];
      copy[index] = read;
    });
    return copy ?? value;
  }
  const { keys, fields } = nested.reading;
  let copy: Record<string, unknown> | undefined;
  const without = (key: string) => {
    copy ??= { ...(value as Record<string, unknown>) };
    delete copy[key];
  };
  for (const [key, inner] of Object.entries(value)) {
    const child = `${path}.${key}`;
    const kind = fields.kindOf(child);
    if (kind === 'object') {
      const read = nestedFields(inner, child, nested);
      if (read !== inner) (copy ??= { ...(value as Record<string, unknown>) })[key] = read;
    }
    if (kind !== undefined) continue;
    if (keys.leftOut(child, nested.at.where)) {
      without(key);
      continue;
    }
    const target = mappedPath(keys.headerMap, child);
    const type = target === child ? undefined : fields.kindOf(target);
    if (type !== undefined && type !== 'object') {
      without(key);
      if (inner !== null && inner !== '') nested.moves.push({ path: target, value: inner, type });
      continue;
    }
    const data = keys.unread(child, inner, nested.at.where, nested.at.line);
    if (data) nested.unread.push(data);
  }
  return copy ?? value;
}

/** An object field such as `customerRegistrationAddress`, whose children are the known paths (any list index). */
function hasKnownChildren(path: string, catalogue: FieldCatalogue): boolean {
  const prefix = `${path.replace(/\.\d+(?=\.|$)/g, '.0')}.`;
  return catalogue.knownPaths.some((known) => known.startsWith(prefix));
}

/** The key of an object that only wraps the list of records (`{"customers": [{...}]}`), else undefined. */
function wrappedList(value: object): string | undefined {
  const keys = Object.keys(value);
  if (keys.length !== 1) return undefined;
  const inner = (value as Record<string, unknown>)[keys[0] as string];
  return Array.isArray(inner) && inner.length > 0 && inner.every((item) => item !== null && typeof item === 'object')
    ? keys[0]
    : undefined;
}
