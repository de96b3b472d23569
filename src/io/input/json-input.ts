import { InputError } from '../../base/errors.js';
import { headerKey } from '../../domain/header-aliases.js';
import { inputName } from './byte-source.js';
import { shortText } from './header-messages.js';
import type { JsonValue } from './json-values.js';
import { type InputOptions, type InputRecord, invisibleProblems, recordPlace } from './opened-input.js';
import {
  defaultMaxListIndex,
  type FieldCatalogue,
  ignoredByMap,
  mappedPath,
  setPath,
  typedValue,
  unreadablePath,
} from './record-shape.js';

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
  const warned = new Set<string>();
  const file = options.displayName ?? inputName(options.path);
  const maxListIndex = options.maxListIndex ?? defaultMaxListIndex;
  let duplicateWarnings = 0;
  // `--ignore-column` names keys as it names headers: case, accents, spaces and punctuation aside.
  const ignoredKeys = new Set((options.ignoredColumns ?? []).map(headerKey));
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
    const record: Record<string, unknown> = {};
    const entries = Object.entries(value);
    for (const [position, [key, inner]] of entries.entries()) {
      if (ignoredByMap(options.headerMap, key)) continue;
      const path = mappedPath(options.headerMap, key);
      const unreadable = unreadablePath(path, maxListIndex);
      if (unreadable)
        throw new InputError(`${file}:${where}: key "${shortText(key)}": ${unreadable}.`, {
          file,
          line,
          field: shortText(key),
        });
      // The last field of an errors file that b2bctl wrote: feeding that file back is what it is for.
      if (path === 'error' && position === entries.length - 1 && !options.catalogue.typeOf(path)) continue;
      if (!options.catalogue.typeOf(path) && !hasKnownChildren(path, options.catalogue)) {
        if (ignoredKeys.size > 0 && ignoredKeys.has(headerKey(key))) continue;
        if (!warned.has(key)) {
          warned.add(key);
          const message = `${file}:${where}: unknown field "${shortText(key)}"`;
          if (options.strict)
            throw new InputError(`${message}. Rename it with --map, or drop --strict to ignore it.`, {
              file,
              line,
              field: key,
            });
          options.warn(`warning: ${message}; it is ignored (--strict makes this an error).`);
        }
        continue;
      }
      if (inner === null || inner === '') continue;
      // ERP exports often quote numbers and booleans ("quantity": "5"); read them as a CSV cell of that field would be.
      const type = options.catalogue.typeOf(path);
      const typed =
        typeof inner === 'string' && type !== undefined && type !== 'string' && type !== 'list'
          ? typedValue(inner, type, '.', path)
          : inner;
      setPath(record, path, typed);
    }
    yield { line, ...place, values: record, original: value, problems: invisibleProblems(record) };
  }
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

/** An object field such as `customerRegistrationAddress`, whose children are the known paths. */
function hasKnownChildren(path: string, catalogue: FieldCatalogue): boolean {
  return catalogue.knownPaths.some((known) => known.startsWith(`${path}.`));
}
