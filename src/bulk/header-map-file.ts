import { basename, extname } from 'node:path';
import type { Context } from '../context.js';
import { type HeaderMapProposal, headerKey } from '../domain/header-aliases.js';
import { UsageError } from '../errors.js';
import { editDistance } from '../lib/suggest.js';
import { writeFileDurably } from '../io/output/durable-file.js';

/** The answer that leaves a column unmapped; no field path can be empty. */
const skip = '';

/**
 * `--write-map FILE`: takes the proposed map, asks on a terminal about each column left unmapped (a list of the
 * fields still free, the likeliest first, `skip` at the top), saves the whole map to FILE and returns it.
 */
export async function adoptHeaderMap(
  context: Context,
  path: string,
  knownPaths: readonly string[],
  map: Record<string, string>,
  proposal: HeaderMapProposal,
  /** The proposed columns were just listed (offerHeaderMap): name only those the person chose. */
  listed = false,
): Promise<Record<string, string>> {
  const adopted = { ...map };
  if (proposal.unmapped.length > 0 && context.canPrompt()) {
    const prompter = await context.prompter();
    for (const header of proposal.unmapped) {
      const free = knownPaths.filter((field) => !Object.values(adopted).includes(field));
      const field = await prompter.select(`Column "${header}" is which field?`, [
        { name: 'skip (ignore this column)', value: skip },
        ...likeliestFirst(header, free).map((candidate) => ({ name: candidate, value: candidate })),
      ]);
      if (field !== skip) adopted[header] = field;
    }
  }
  try {
    writeFileDurably(path, `${JSON.stringify(adopted, null, 2)}\n`);
  } catch (error) {
    throw new UsageError(
      `Cannot write the --write-map file ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); nothing was sent.`,
    );
  }
  for (const [header, field] of Object.entries(adopted))
    if (!listed || !Object.hasOwn(map, header)) context.log.info(`map: column "${header}" reads as ${field}`);
  context.log.info(`map: saved to ${path}; pass --map ${path} from now on (edit it to change a column).`);
  return adopted;
}

/** Fields ordered by how close their last name is to the header's (`Obs` → `notes` before `zipcode`). */
function likeliestFirst(header: string, fields: readonly string[]): string[] {
  const key = headerKey(header);
  const distance = (field: string) => editDistance(key, (field.split('.').at(-1) ?? field).toLowerCase());
  return fields.toSorted((a, b) => distance(a) - distance(b) || a.localeCompare(b));
}

/**
 * On a terminal without `--write-map`: lists the columns as they would be read and asks whether to read the file
 * so and save the map as `NAME.map.json` in the working folder; its path, or undefined when the person says no.
 */
export async function offerHeaderMap(
  context: Context,
  inputPath: string,
  proposal: HeaderMapProposal,
): Promise<string | undefined> {
  if (proposal.mapped.length === 0) return undefined;
  const mapPath = inputPath === '-' ? 'stdin.map.json' : `${basename(inputPath, extname(inputPath))}.map.json`;
  for (const [header, field] of proposal.mapped) context.log.info(`column "${header}" reads as ${field}`);
  for (const header of proposal.unmapped) context.log.info(`column "${header}" matches no field`);
  const prompter = await context.prompter();
  const answer = await prompter.select(`Read the file with this map, and save it as ${mapPath} for --map?`, [
    {
      name:
        proposal.unmapped.length === 0
          ? 'yes'
          : `yes, and ask which field each of the ${proposal.unmapped.length} other columns is`,
      value: 'yes',
    },
    { name: 'no, stop here', value: 'no' },
  ]);
  return answer === 'yes' ? mapPath : undefined;
}
