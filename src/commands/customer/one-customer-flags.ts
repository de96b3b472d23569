import { UsageError } from '../../base/errors.js';

/**
 * One customer on the command line is one request: the flags that read, pace or report a FILE are refused, where
 * ignored they would look honoured (a `--report` never written, a `--min-records` never checked).
 */
export function refuseFileOnlyFlags(given: readonly string[], fileExample: string): void {
  if (given.length === 0) return;
  const one = given.length === 1;
  throw new UsageError(
    `${given.join(', ')} ${one ? 'applies' : 'apply'} to a FILE of customers; one customer on the command line is one request, with no file to read, pace or report. Remove ${one ? 'it' : 'them'}, or give a file: ${fileExample}.`,
  );
}
