import { headerCaution, type HeaderMapProposal, proposeHeaderMap, rivalNote } from '../../domain/header-aliases.js';
import { InputError } from '../../base/errors.js';
import { nothingSent } from './nothing-sent.js';
import {
  type ColumnPlan,
  type FieldCatalogue,
  type HeaderMap,
  type HeaderProblems,
  planColumns,
} from './record-shape.js';

/** What the reader does with columns named as an ERP names them: stop and list them, or adopt them (`--write-map`). */
export interface HeaderProposalOptions {
  catalogue: FieldCatalogue;
  headerMap?: Readonly<HeaderMap>;
  maxListIndex: number;
  /** A value under a header in the first rows, for the prompts; undefined for a column empty there. */
  sampleOf?: (header: string) => string | undefined;
  /**
   * Given: receives the whole map (the `--map` given merged with the proposal) to save, and the columns are read
   * with the map it returns. Absent, or when it returns undefined (the operator declined): the run stops at the
   * header with every proposed and unknown column listed.
   */
  adoptHeaderMap?: (
    map: HeaderMap,
    proposal: HeaderMapProposal,
    sampleOf: (header: string) => string | undefined,
    /** What the input calls what it maps: a CSV's or a sheet's column, a JSON object's key. */
    noun?: 'column' | 'key',
  ) => Promise<HeaderMap | undefined>;
  /** False for a command that never sends (`validate`): see InputOptions. */
  sends?: boolean;
  warn(message: string): void;
}

/**
 * The header's columns once the ERP's names are read: in one pass every column that looks like a field and every
 * one that does not is named, with the map that reads them, so a Portuguese export takes one run, not nine.
 */
export async function planWithProposal(
  file: string,
  at: string,
  headers: readonly string[],
  options: HeaderProposalOptions,
): Promise<{ columns: ColumnPlan[]; problems: HeaderProblems }> {
  const plan = planColumns(headers, options.catalogue, options.headerMap, options.maxListIndex);
  if (plan.problems.unreadable.length > 0 || plan.problems.repeated.length > 0) return plan;
  const proposal = proposeHeaderMap(
    plan.problems.unknown.map((unknown) => unknown.header),
    options.catalogue.knownPaths,
    plan.columns.map((column) => column.path),
  );
  const map: HeaderMap = { ...options.headerMap, ...Object.fromEntries(proposal.mapped) };
  // `--write-map` adopts what is proposed, and may ask about the rest (on a terminal).
  if (options.adoptHeaderMap && (proposal.mapped.length > 0 || proposal.unmapped.length > 0)) {
    const adopted = await options.adoptHeaderMap(map, proposal, options.sampleOf ?? (() => undefined));
    if (adopted) return planColumns(headers, options.catalogue, adopted, options.maxListIndex);
  }
  if (proposal.mapped.length === 0) return plan;
  for (const [header, field] of proposal.mapped)
    options.warn(`warning: ${file}:${at}: column "${header}" reads as ${field}`);
  for (const header of proposal.unmapped) {
    const sample = options.sampleOf?.(header);
    const rival = rivalNote(header, proposal);
    // A lookalike (`MVA-ST` for mva) is named for what it holds on the first run already, before it is mapped.
    const caution = headerCaution(header, options.catalogue.knownPaths);
    options.warn(
      rival === undefined
        ? `warning: ${file}:${at}: column "${header}" matches no field${sample === undefined ? '' : ` but holds data ("${sample}"): map it, or leave it out with --ignore-column`}${caution === undefined ? '' : `. Note: ${caution.holds}.`}`
        : `warning: ${file}:${at}: column "${header}" ${rival}; the map below leaves "${header}" out (null): to read it instead, swap the two in the map`,
    );
  }
  // A column left out for its rival is in the map as null, so the map given back reads the file in one more run.
  const leftOut = Object.fromEntries(Object.keys(proposal.rivals).map((header) => [header, null]));
  throw new InputError(
    `${file}:${at}: ${proposal.mapped.length === 1 ? '1 column is' : `${proposal.mapped.length} columns are`} named as an ERP names ${proposal.mapped.length === 1 ? 'it' : 'them'} (listed above)${nothingSent(options.sends)}. Run again with --write-map map.json to save the map and read the file with it, or pass --map with a file holding ${JSON.stringify({ ...map, ...leftOut })}.`,
    { file },
  );
}
