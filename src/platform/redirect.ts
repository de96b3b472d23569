import { B2bctlError, ExitCode } from '../base/errors.js';
import { redactUrl } from './redact.js';

/** An answer b2bctl reads as a redirect: never followed, never a success. */
export interface RedirectAnswer {
  status: number;
  url: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

/**
 * Whether an answer is a redirect (3xx). Never followed: it would take the token to wherever it points, and a
 * platform that moved is one base URL to change. Never a success either: nothing reached the platform's route.
 */
export function isRedirect(status: number): boolean {
  return status >= 300 && status < 400;
}

/** What a redirect is and what to do, in the words every command and `b2bctl api` use: `a redirect to …, not followed: …`. */
export function redirectWords(response: Pick<RedirectAnswer, 'headers'>): string {
  return `a redirect${locationOf(response)}, not followed: the token goes to the base URL only; if the platform moved, set the base URL there`;
}

/**
 * A redirect answered in the platform's place: exit 69 as for any answer that did not come from the platform's route
 * (an HTML login page, a gateway's 502 page). A bulk run stops at it, leaving its records not sent for the resume.
 */
export class RedirectAnswerError extends B2bctlError {
  constructor(method: string, response: RedirectAnswer) {
    super(
      `${method} ${redactUrl(response.url)} answered HTTP ${response.status} (${redirectWords(response)}).`,
      ExitCode.unavailable,
    );
  }
}

function locationOf(response: Pick<RedirectAnswer, 'headers'>): string {
  const location = response.headers.location;
  const text = Array.isArray(location) ? location[0] : location;
  return text === undefined ? '' : ` to ${redactUrl(String(text))}`;
}
