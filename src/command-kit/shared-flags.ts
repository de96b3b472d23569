import { Command, Option } from 'commander';
import type { InputFlags, SendFlags } from '../bulk/flags.js';
import { defaultConcurrency } from '../bulk/send-pacing.js';
import { defaultConnectionsPerAddress } from '../http-server/connection-limit.js';
import { proxyHeader, trustedProxies } from '../http-server/trust-proxy.js';
import { delimiter, positiveNumber, requestTimeout, requestTimeoutHelp, wholeNumber } from './parse.js';

/** The reading flags as commander parses them (see `withInputOptions`). */
export interface ParsedInputFlags {
  map?: string;
  delimiter?: string;
  encoding?: InputFlags['encoding'];
  decimal?: InputFlags['decimal'];
  strict?: true;
  writeMap?: string;
  ignoreColumn?: string[];
  sheet?: string;
}

/** The sending flags as commander parses them (see `withSendOptions`). */
export interface ParsedSendFlags {
  concurrency?: number;
  rate?: number;
  retries?: number;
  timeout?: number;
  report?: string;
  errors?: string;
  resume?: string;
  keepReports?: number;
  skipInvalid?: true;
  dryRun?: true;
  minRecords?: number;
}

/**
 * Flags several commands share, declared once: added to each command's definition, and read back from what
 * commander parsed as the typed flags the verb takes.
 */
export interface FlagSet<Parsed, Flags> {
  addTo(command: Command): Command;
  read(parsed: Parsed): Flags;
}

/** The reading flags (docs/input-files.md), shared by every command that takes a FILE. */
export const inputFlags: FlagSet<ParsedInputFlags, InputFlags> = {
  addTo: (command) =>
    command
      .option(
        '--map <file>',
        'JSON file renaming the ERP\'s headers to the field names this command reads: {"Header in the file":"field"}',
      )
      .option('--delimiter <char>', 'CSV delimiter (default: sniffed among , ; and tab)', delimiter)
      .addOption(
        new Option(
          '--encoding <name>',
          'text encoding: utf-8, windows-1252, cp850, macintosh, utf-16le… (default: UTF-8 when it decodes, else Windows-1252)',
        ),
      )
      .addOption(
        new Option(
          '--decimal <separator>',
          'decimal separator of numbers (default: , with ; as delimiter, else .)',
        ).choices(['.', ',']),
      )
      .option('--strict', 'an unknown column (or JSON key) is an error, not a warning')
      .option(
        '--ignore-column <name>',
        'leave out the data of the column with this header, or of this JSON key (repeatable); else data under a header or key no field reads stops the run',
        (name: string, names: string[] = []) => [...names, name],
      )
      .option(
        '--sheet <name|n>',
        'the sheet of a .xlsx or .ods workbook to read, by name or tab number (default: the first visible sheet)',
      )
      .option(
        '--write-map <file>',
        'read the columns named as an ERP names them (CPF/CNPJ, Razão Social, CEP…) and save that map to FILE for --map (a new file: one that exists is refused)',
      ),
  read: (flags) => ({
    map: flags.map,
    delimiter: flags.delimiter,
    encoding: flags.encoding,
    decimal: flags.decimal,
    strict: flags.strict === true,
    writeMap: flags.writeMap,
    ignoreColumns: flags.ignoreColumn,
    sheet: flags.sheet,
  }),
};

/** The sending flags (docs/bulk-runs.md, "Sending"), shared by every bulk command. */
const sendFlags: FlagSet<ParsedSendFlags, SendFlags> = {
  addTo: (command) =>
    command
      .option('--concurrency <n>', `requests in flight at once (default: ${defaultConcurrency})`, wholeNumber(1))
      .option('--rate <n>', 'requests per second at most (default: as fast as the platform answers)', positiveNumber)
      .option('--retries <n>', 'retries of a failed request (default: the http.retries setting, 3)', wholeNumber(0))
      .option('--timeout <time>', `${requestTimeoutHelp} (default: the http.timeout setting, 30s)`, requestTimeout)
      .option('--report <path>', 'report file (default: beside the input, NAME.report-TIMESTAMP.csv, or in outputDir)')
      .option('--errors <path>', 'file of failed and invalid records to fix and feed back (default: beside the report)')
      .option('--resume <report>', "skip the records an earlier run's report shows done, and append to that report")
      .option(
        '--keep-reports <n>',
        'after the run, remove the report files of all but the N newest runs of this input by this profile and store; a run still sending is kept, and one left to resume until N newer runs have finished with nothing left (docs/cron.md)',
        wholeNumber(1),
      )
      .option('--skip-invalid', 'send the valid records and report the invalid ones, instead of sending nothing')
      .option('--dry-run', 'validate and say what would be sent, without sending')
      .option(
        '--min-records <n>',
        'exit 65, sending nothing, when the input has fewer records (an empty export in a cron job)',
        wholeNumber(1),
      ),
  read: (flags) => ({
    concurrency: flags.concurrency,
    rate: flags.rate,
    retries: flags.retries,
    timeoutMs: flags.timeout,
    report: flags.report,
    errors: flags.errors,
    resume: flags.resume,
    keepReports: flags.keepReports,
    skipInvalid: flags.skipInvalid === true,
    dryRun: flags.dryRun === true,
    minRecords: flags.minRecords,
  }),
};

/** The flags of a bulk command, one that reads a FILE and sends it. */
export type ParsedBulkFlags = ParsedInputFlags & ParsedSendFlags;

/** The reading flags, then the sending flags (in that order in the help), of every bulk command. */
export const bulkFlags: FlagSet<ParsedBulkFlags, InputFlags & SendFlags> = {
  addTo: (command) => sendFlags.addTo(inputFlags.addTo(command)),
  read: (flags) => ({ ...inputFlags.read(flags), ...sendFlags.read(flags) }),
};

/**
 * The bulk flags only a FILE's run reads (how to read it, pace it, report it), given on this command line. A command
 * that also takes one record on the line refuses them there: silently ignored, `--report` or `--min-records` would
 * look honoured by a run that never read them. `--dry-run`, `--retries` and `--timeout` apply to one record too.
 */
export function fileOnlyFlagsGiven(command: Command): string[] {
  const oneRecordReads = new Set(['--dry-run', '--retries', '--timeout']);
  // Built when asked (a usage check), not at every start: the names are those bulkFlags adds.
  const fileOnly = bulkFlags
    .addTo(new Command())
    .options.map((option) => option.long ?? '')
    .filter((name) => !oneRecordReads.has(name));
  return command.options
    .filter((option) => fileOnly.includes(option.long ?? ''))
    .filter((option) => command.getOptionValueSource(option.attributeName()) === 'cli')
    .map((option) => option.long as string);
}

/** `--trust-proxy` and `--proxy-header`, the same on every server b2bctl runs behind a reverse proxy. */
export function withProxyHeaderOptions(command: Command): Command {
  return command
    .option(
      '--trust-proxy <hops|cidr,...>',
      'take the client address from the proxy header when the direct peer is this reverse proxy (hop count or addresses)',
      trustedProxies,
    )
    .option(
      '--proxy-header <name>',
      'the header the trusted proxy names the client in: x-forwarded-for (default) or forwarded (RFC 7239)',
      proxyHeader,
    );
}

/**
 * `--request-timeout`, `--max-connections` and `--max-connections-per-address`, the same on both servers the
 * platform calls (the webhook receiver, `tax serve`), each with its own request timeout.
 */
export function withConnectionOptions(command: Command, requestTimeoutMs: number): Command {
  return command
    .option(
      '--request-timeout <ms>',
      'time a client has to send a whole request (408 after)',
      wholeNumber(1),
      requestTimeoutMs,
    )
    .option(
      '--max-connections <n>',
      'connections open at once; past it, the client address holding the most loses one',
      wholeNumber(1),
      1024,
    )
    .option(
      '--max-connections-per-address <n>',
      'connections open at once from one client address (an IPv6 one by its /64; a --trust-proxy peer aside)',
      wholeNumber(1),
      defaultConnectionsPerAddress,
    );
}
