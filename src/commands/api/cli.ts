import type { Command } from 'commander';
import type { CommandExamples, Dispatch } from '../../command-kit/command-group.js';
import { positiveNumber, requestTimeout, requestTimeoutHelp, wholeNumber } from '../../command-kit/parse.js';
import { UsageError } from '../../base/errors.js';
import type { ApiOptions } from './api.js';
import type { FieldFlag } from './fields.js';

interface ApiFlags {
  method?: string;
  input?: string;
  header?: string[];
  include?: true;
  paginate?: true;
  pageSize?: number;
  slurp?: true;
  branch?: string;
  rate?: number;
  retries?: number;
  timeout?: number;
  retryWrites?: true;
}

/** `b2bctl api [-X METHOD] PATH`: gh api for every route of the platform. */
export function register(program: Command, dispatch: Dispatch): void {
  // -f and -F in command-line order, as gh builds its body: commander keeps each option's values apart.
  const fields: FieldFlag[] = [];
  const field = (typed: boolean) => (text: string) => {
    fields.push({ typed, text });
    return fields;
  };
  program
    .command('api')
    .summary('send a request to any route with the profile’s token, retries and pacing (like gh api)')
    .description(
      "Sends one request to any route of the platform with the profile's token, its retries and pacing, and prints the answer's body as it came (-i adds the status line and headers): the quotes, contracts, cashback, credit limits and other routes no command of its own covers. Fields from -f and -F make a JSON body or, with GET, the query; --paginate follows a listing to its end, one item per line. A route with {branch} takes --branch. A write (POST, PUT, PATCH, DELETE) is repeated after a 502, a 503, a 504 or a reset only with --retry-writes. The exit code follows the answer (docs/api.md).",
    )
    .argument('<path>', 'route path such as /v1/contracts or /v1/branches/{branch}/contracts (a query may follow ?)')
    .option('-X, --method <method>', 'GET, POST, PUT, PATCH, DELETE or HEAD (default: GET, or POST with fields)')
    .option(
      '-f, --raw-field <key=value>',
      'a string field (repeatable; nested keys such as address[0][zipcode]=…)',
      field(false),
    )
    .option(
      '-F, --field <key=value>',
      'a typed field: numbers, true, false, null, @file for a file’s text (repeatable)',
      field(true),
    )
    .option('--input <file>', 'the request body from a file, - for stdin (fields then go into the query)')
    .option('-H, --header <line>', "a request header 'Name: value' (repeatable)", collect)
    .option('-i, --include', 'print the status line and the headers before the body')
    .option('--paginate', 'every page of a listing (limit/offset), one item per line as they arrive')
    .option(
      '--page-size <n>',
      "items per page, sent as limit (a recognised listing's cap bounds it; default: its cap, or the route's own)",
      wholeNumber(1),
    )
    .option('--slurp', 'with --paginate: one JSON array of every item')
    .option('--branch <code>', 'the branch that fills {branch} in the path (default: the branch setting)')
    .option('--rate <n>', 'requests per second at most', positiveNumber)
    .option('--retries <n>', 'retries of a failed request (default: the http.retries setting)', wholeNumber(0))
    .option('--timeout <time>', `${requestTimeoutHelp} (default: the http.timeout setting)`, requestTimeout)
    .option(
      '--retry-writes',
      'retry POST, PUT, PATCH and DELETE after a 5xx or a reset too (only if repeating is safe)',
    )
    .action((path: string, _flags: unknown, command: Command) => {
      const flags = command.opts<ApiFlags>();
      if (!flags.paginate && (flags.slurp || flags.pageSize !== undefined))
        throw new UsageError(`${flags.slurp ? '--slurp' : '--page-size'} goes with --paginate.`);
      if (flags.paginate && flags.include)
        throw new UsageError('-i prints one answer’s headers; with --paginate, --verbose traces every page.');
      return dispatch<ApiOptions>(command, async () => (await import('./api.js')).run, {
        path,
        method: flags.method,
        fields: [...fields],
        input: flags.input,
        headers: flags.header ?? [],
        branch: flags.branch,
        retryWrites: flags.retryWrites === true,
        include: flags.include === true,
        paginate: flags.paginate === true,
        pageSize: flags.pageSize,
        slurp: flags.slurp === true,
        rate: flags.rate,
        retries: flags.retries,
        timeoutMs: flags.timeout,
      });
    });
}

/** The examples at the end of each command's help, by its path under the root. */
export const examples: CommandExamples = {
  api: [
    'b2bctl api /v1/quotes/pending --paginate',
    'b2bctl api /v1/branches/{branch}/contracts --branch 0002 --paginate --slurp',
    'b2bctl api -X PUT /v1/customer/12345678909 -f name=Acme -F active=true',
    "jq '{items: .}' stock.json | b2bctl api /v1/stock/batch -X PUT --input - -i",
  ],
};

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
