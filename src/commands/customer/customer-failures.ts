import { ExitCode, NotFoundError, PlatformError } from '../../base/errors.js';

/** "no customer has the document ... in this store (HTTP 404)": one wording for the run's report and its error line. */
function noCustomerWith(document: string): string {
  return `no customer has the document ${document} in this store (HTTP 404)`;
}

/** The error of a single-customer command (`update --set`, `status`, `addresses`) when the document is unknown. */
export function customerNotFound(document: string): NotFoundError {
  const sentence = noCustomerWith(document);
  return new NotFoundError(`${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`);
}

/**
 * How `customer update` and `customer status` record a refused request: the platform's own message in the report,
 * or the 404 sentence. Anything else ends the run: not a platform answer, a lost login (exit 77), or a server
 * failure (5xx, already retried).
 */
export function customerFailureMessage(error: unknown, document: string): { status: number; message: string } {
  if (!(error instanceof PlatformError) || error.exitCode === ExitCode.authFailed || error.status >= 500) throw error;
  const message = error.status === 404 ? noCustomerWith(document) : (error.platformMessage ?? error.message);
  return { status: error.status, message };
}
