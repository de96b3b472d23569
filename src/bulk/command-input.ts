import type { Context } from '../context.js';
import { InputError } from '../base/errors.js';
import { readRegularFile } from '../lib/named-file.js';
import type { PipeWaitNotice } from '../io/input/byte-source.js';
import type { FieldCatalogue, HeaderMap } from '../io/input/record-shape.js';
import { type InputOptions, parseHeaderMap, type OpenedInput } from '../io/input/open-input.js';
import { openAnyInput } from '../io/input/workbook-or-text.js';
import type { InputFlags } from './flags.js';
import { adoptHeaderMap, offerHeaderMap } from './header-map-offer.js';
import { printable } from '../lib/printable.js';
import { utf16Text } from '../lib/json-file-text.js';

/** How a command opens its input, beyond its flags. */
export interface CommandInputOptions {
  quietWarnings?: boolean;
  displayName?: string;
  stdin?: NodeJS.ReadableStream;
  /**
   * False for a command that never sends (`validate`, the tax commands): the readers' refusals, and --write-map's,
   * then do not say "nothing was sent".
   */
  sends?: boolean;
  /** False for a server's log: a refused header is described, never quoted (InputOptions.quotesHeader). */
  quotesHeader?: boolean;
  /** Throws when the file is no longer the one the command meant to read (InputOptions.unchanged). */
  unchanged?: () => void;
}

/** Opens a command's input with its reading flags; `--map` is loaded here so every command reads it alike. */
export async function openCommandInput(
  context: Context,
  path: string,
  flags: InputFlags,
  catalogue: FieldCatalogue,
  options: CommandInputOptions = {},
): Promise<OpenedInput> {
  const headerMap = flags.map === undefined ? undefined : await readHeaderMapFile(flags.map, flags.encoding);
  const session = await context.session();
  if (path === '-' && !options.quietWarnings) announceTerminalStdin(context);
  const inputOptions: InputOptions = {
    path,
    displayName: options.displayName,
    maxListIndex: session.get('input.maxListIndex'),
    rowBounds: { maxColumns: session.get('input.maxColumns'), maxRowChars: session.get('input.maxRowChars') },
    interrupt: context.interrupt,
    pipeWait: pipeWaitNotice(context),
    // stdin as the command was given it, or its bytes where the command has already looked at them.
    stdin: options.stdin ?? context.io.stdin,
    catalogue,
    encoding: flags.encoding,
    delimiter: flags.delimiter,
    decimal: flags.decimal,
    headerMap,
    headerMapFile: flags.map,
    ignoredColumns: flags.ignoreColumns,
    strict: flags.strict,
    sheet: flags.sheet,
    sends: options.sends,
    quotesHeader: options.quotesHeader,
    unchanged: options.unchanged,
    warn: options.quietWarnings ? () => {} : (message) => context.log.warn(message),
    // Asked for by the user: neither data nor a problem, so --quiet (a cron night) leaves it out.
    note: options.quietWarnings ? () => {} : (message) => context.log.info(message),
    // --write-map, or a person at a terminal who says yes (the map then goes beside the input).
    adoptHeaderMap:
      flags.writeMap || context.canPrompt()
        ? async (map, proposal, sampleOf, noun = 'column') => {
            const mapPath =
              flags.writeMap ?? (await offerHeaderMap(context, path, catalogue.knownPaths, proposal, sampleOf, noun));
            if (mapPath === undefined) return undefined;
            const adopted = await adoptHeaderMap(
              context,
              mapPath,
              catalogue.knownPaths,
              map,
              proposal,
              flags.writeMap === undefined,
              sampleOf,
              noun,
              options.sends,
            );
            // Read from now on (a second pass, a resume line, the feed-back line) as if given as --map.
            inputOptions.headerMap = adopted;
            inputOptions.adoptHeaderMap = undefined;
            flags.map = mapPath;
            return adopted;
          }
        : undefined,
  };
  return openAnyInput(inputOptions);
}

/** The `--map` file, read and checked: a file that cannot be read is exit 66, one that is not a map exit 65. */
async function readHeaderMapFile(map: string, encoding: string | undefined): Promise<HeaderMap> {
  let text: string;
  try {
    text = await decodeMapFile(await readRegularFile(map), encoding);
  } catch (error) {
    throw new InputError(
      `${printable(map)}: cannot read the --map file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
      { file: map, missing: true },
    );
  }
  try {
    return parseHeaderMap(JSON.parse(text), map);
  } catch (error) {
    // The parser quotes the text around the fault: printable keeps its line breaks and NULs out of the message.
    if (error instanceof SyntaxError)
      throw new InputError(`${printable(map)}: the --map file is not valid JSON (${printable(error.message)}).`, {
        file: map,
      });
    throw error;
  }
}

/**
 * A `--map` file is saved by the same people and programs as the input: UTF-16 by its BOM, UTF-8 (with or without a
 * BOM) when it decodes, else the input's --encoding, else Windows-1252, so its accented headers match.
 */
async function decodeMapFile(bytes: Buffer, encoding: string | undefined): Promise<string> {
  // Notepad's "Unicode" (UTF-16 with a BOM), whatever the input's encoding.
  const utf16 = utf16Text(bytes);
  if (utf16 !== undefined) return utf16;
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  // Tried even with --encoding windows-1252: that names the export's encoding, and an editor's map is UTF-8.
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    if (encoding !== undefined && /^utf-?8$/i.test(encoding)) throw new Error('not valid UTF-8');
  }
  const { default: iconv } = await import('iconv-lite');
  if (encoding !== undefined && !iconv.encodingExists(encoding)) throw new Error(`unknown encoding ${encoding}`);
  return iconv.decode(body, encoding ?? 'windows-1252');
}

/**
 * `-` on a terminal waits for typed or pasted records: say so, and how to end, or it looks hung
 * (a pipe or a redirected file needs no note).
 */
export function announceTerminalStdin(context: Context): void {
  if (context.io.isStdinTTY)
    context.log.warn(
      'Reading records from stdin (this terminal): paste or type them, then press Ctrl-D on an empty line to end (Ctrl-C to cancel).',
    );
}

/** The log line of a bulk input that is a FIFO no program writes to (byte-source.ts), on the command's clock. */
export function pipeWaitNotice(context: Context): PipeWaitNotice {
  return { sleep: (ms, signal) => context.clock.sleep(ms, signal), warn: (message) => context.log.warn(message) };
}
