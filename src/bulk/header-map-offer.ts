import { basename, extname } from 'node:path';
import type { Context } from '../context.js';
import { type HeaderMapProposal, headerCaution, headerKey, namesASecret, rivalNote } from '../domain/header-aliases.js';
import type { HeaderMap } from '../io/input/record-shape.js';
import { UsageError } from '../base/errors.js';
import { editDistance } from '../lib/suggest.js';
import { writeFileDurably } from '../io/output/durable-file.js';
import { pathTaken } from '../lib/private-file.js';
import { nothingSent } from '../io/input/nothing-sent.js';
import { printable } from '../lib/printable.js';
import { shellWord } from '../lib/shell-word.js';

/** The answer that leaves a column out (saved as `null`); no field path can be empty. */
const skip = '';

/**
 * `--write-map FILE`: takes the proposed map, asks on a terminal about each column left unmapped (a list of the
 * fields still free, neither fed by another column nor chosen before, the likeliest first, and "leave it out"),
 * saves the whole map to FILE and returns it. A column left out is saved as `null`, so later runs with `--map FILE`
 * leave it out too.
 */
export async function adoptHeaderMap(
  context: Context,
  path: string,
  knownPaths: readonly string[],
  map: HeaderMap,
  proposal: HeaderMapProposal,
  /** The proposed columns were just listed (offerHeaderMap): name only those the person chose. */
  listed = false,
  sampleOf: (header: string) => string | undefined = () => undefined,
  /** What the input calls what it maps: a CSV's or a sheet's column, a JSON object's key. */
  noun: 'column' | 'key' = 'column',
  /** False for a command that never sends (`validate`, the tax commands): its refusals then do not say "sent". */
  sends?: boolean,
): Promise<HeaderMap> {
  // A map saved before holds answers to these prompts and hand edits: a day-two run with yesterday's command line
  // would replace it with only what the headers propose. The offer on a terminal names its file before it saves.
  if (!listed && pathTaken(path))
    throw new UsageError(
      `--write-map ${printable(path)}: the file exists (a map saved before, perhaps edited since); nothing was written${nothingSent(sends, ' or sent')}. Read the file with it: --map ${shellWord(path)}; to save a new map, delete it or give --write-map another file.`,
    );
  const adopted: HeaderMap = { ...map };
  if (proposal.unmapped.length > 0 && context.canPrompt()) {
    const prompter = await context.prompter();
    for (const header of proposal.unmapped) {
      const free = freeFields(knownPaths, proposal, adopted);
      // Every field is read from another column: "leave it out" would be the only answer, so it is not asked.
      if (free.length === 0) {
        adopted[header] = null;
        continue;
      }
      // A secret's value is not shown on a screen someone may be watching or recording.
      const sample = namesASecret(header) ? '***' : sampleOf(header);
      const caution = headerCaution(header, knownPaths);
      const field = await prompter.select(
        `${noun === 'key' ? 'Key' : 'Column'} "${header}"${sample === undefined ? ' (empty in the first rows)' : ` (holds "${sample}")`} is which field?${caution === undefined ? '' : ` (${caution.holds})`}`,
        fieldChoices(header, free),
      );
      adopted[header] = field === skip ? null : field;
    }
  }
  try {
    writeFileDurably(path, `${JSON.stringify(adopted, null, 2)}\n`);
  } catch (error) {
    throw new UsageError(
      `Cannot write the --write-map file ${printable(path)} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})${nothingSent(sends)}.`,
    );
  }
  for (const [header, field] of Object.entries(adopted))
    if (!listed || !Object.hasOwn(map, header))
      context.log.info(
        field === null ? `map: ${noun} "${header}" is left out` : `map: ${noun} "${header}" reads as ${field}`,
      );
  context.log.info(
    `map: saved to ${printable(path)}; pass --map ${shellWord(path)} from now on (edit it to change a ${noun}).`,
  );
  return adopted;
}

/** The fields no column feeds: neither by its name, nor by the map so far. */
function freeFields(knownPaths: readonly string[], proposal: HeaderMapProposal, map: HeaderMap): string[] {
  return knownPaths.filter((field) => !proposal.taken.includes(field) && !Object.values(map).includes(field));
}

/**
 * The answers for a column: the free fields by how close their last name is to the header's (`Obs` → `notes` before
 * `zipcode`), and "leave it out". The first is pre-selected: the closest field when it is a near spelling of the
 * header (`Nmae` → `name`), else "leave it out", so Enter never maps a column to a field it merely resembles.
 */
export function fieldChoices(header: string, fields: readonly string[]): { name: string; value: string }[] {
  const key = headerKey(header);
  const distance = (field: string) => editDistance(key, (field.split('.').at(-1) ?? field).toLowerCase());
  const sorted = fields.toSorted((a, b) => distance(a) - distance(b) || a.localeCompare(b));
  const caution = headerCaution(header, fields);
  const fieldAnswers = sorted.map((candidate) => ({
    name: candidate === caution?.field ? `${candidate} (${caution.unlike})` : candidate,
    value: candidate,
  }));
  const leaveOut = { name: 'leave it out (its data is not sent)', value: skip };
  const closest = sorted[0];
  const near = closest !== undefined && distance(closest) <= Math.max(2, Math.floor(key.length / 3));
  return near ? [...fieldAnswers.slice(0, 1), leaveOut, ...fieldAnswers.slice(1)] : [leaveOut, ...fieldAnswers];
}

/**
 * On a terminal without `--write-map`: lists the columns as they would be read and asks whether to read the file
 * so and save the map as `NAME.map.json` in the working folder; its path, or undefined when the person says no.
 */
export async function offerHeaderMap(
  context: Context,
  inputPath: string,
  knownPaths: readonly string[],
  proposal: HeaderMapProposal,
  sampleOf: (header: string) => string | undefined = () => undefined,
  noun: 'column' | 'key' = 'column',
): Promise<string | undefined> {
  // Columns no field reads matter only when they hold data: else they are left out with nothing lost.
  if (proposal.mapped.length === 0 && !proposal.unmapped.some((header) => sampleOf(header) !== undefined))
    return undefined;
  const name = inputPath === '-' ? 'stdin' : basename(inputPath, extname(inputPath));
  const usualPath = `${name}.map.json`;
  const mapPath = unusedMapPath(name);
  for (const [header, field] of proposal.mapped) context.log.info(`${noun} "${header}" reads as ${field}`);
  for (const header of proposal.unmapped)
    context.log.info(`${noun} "${header}" ${rivalNote(header, proposal, noun) ?? 'matches no field'}`);
  const prompter = await context.prompter();
  // A map saved before holds answers and hand edits, as --write-map says when it refuses the file: kept, never replaced.
  const kept =
    mapPath === usualPath ? '' : `${usualPath} exists (a map saved before, perhaps edited since) and is kept. `;
  const stop = mapPath === usualPath ? 'no, stop here' : `no, stop here (to read the file with it: --map ${usualPath})`;
  const answer = await prompter.select(`${kept}Read the file with this map, and save it as ${mapPath} for --map?`, [
    {
      name:
        proposal.unmapped.length === 0
          ? 'yes'
          : freeFields(knownPaths, proposal, Object.fromEntries(proposal.mapped)).length === 0
            ? `yes, and leave out the ${noun}${proposal.unmapped.length === 1 ? '' : 's'} no field reads (every field has one)`
            : proposal.unmapped.length === 1
              ? `yes, and ask which field the other ${noun} is`
              : `yes, and ask which field each of the ${proposal.unmapped.length} other ${noun}s is`,
      value: 'yes',
    },
    { name: stop, value: 'no' },
  ]);
  return answer === 'yes' ? mapPath : undefined;
}

/** `NAME.map.json`, or `NAME-2.map.json`, `NAME-3.map.json`… when a file holds that name. */
function unusedMapPath(name: string): string {
  let path = `${name}.map.json`;
  for (let sequence = 2; pathTaken(path); sequence++) path = `${name}-${sequence}.map.json`;
  return path;
}
