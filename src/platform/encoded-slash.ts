import { PlatformError, type PlatformRequestInfo } from '../base/errors.js';
import { htmlTitle, isHtmlAnswer } from './answers/shapes.js';

/**
 * A 400 or 404 to a path holding an encoded "/" (`%2F`, a formatted CNPJ's), whose body is not JSON: what a server
 * in front of the platform answers when it refuses encoded slashes in a path (Tomcat with ALLOW_ENCODED_SLASH off,
 * Spring Security's firewall, Apache without AllowEncodedSlashes), before the platform sees the request. Its status
 * is kept, but it says nothing of the record: a 404 of this kind is no "no such customer".
 */
export class EncodedSlashRefusedError extends PlatformError {}

/**
 * What to do when the "/" belongs to the value itself (an order id, a branch code), which b2bctl has no other way to
 * write, unlike a CNPJ's (customer.documentInPath): only the server in front of the platform can let it through.
 * `what` names the value (`the order id "PED/1"`).
 */
export function heldSlashAdvice(what: string): string {
  return `the "/" belongs to ${what}, which b2bctl has no other way to write: ask whoever runs that server to let an encoded slash through to the platform (Tomcat: ALLOW_ENCODED_SLASH; Spring Security: StrictHttpFirewall's allowUrlEncodedSlash; Apache: AllowEncodedSlashes NoDecode)`;
}

/**
 * The refusal of an encoded "/" in `path`, when the answer reads as one; undefined otherwise (a JSON body is the
 * answer of whoever wrote it, and says so in its own words). `advice` names what sends the value without its "/".
 */
export function encodedSlashRefusal(
  answer: { status: number; text: string; contentType: string | undefined; body: unknown },
  request: PlatformRequestInfo & { path: string },
  advice: string | undefined,
): EncodedSlashRefusedError | undefined {
  if (answer.status !== 400 && answer.status !== 404) return undefined;
  if (!/%2F/i.test(request.path)) return undefined;
  if (answer.body !== null && typeof answer.body === 'object') return undefined;
  const title = isHtmlAnswer(answer.contentType, answer.text) ? htmlTitle(answer.text) : undefined;
  const what = isHtmlAnswer(answer.contentType, answer.text)
    ? `an HTML page${title ? ` ("${title}")` : ''}`
    : answer.text.trim() === ''
      ? 'an empty answer'
      : 'an answer that is not JSON';
  const explanation = `${what}, not the platform's answer, to a path holding an encoded "/" (%2F): servers that refuse an encoded slash in a path (Tomcat, Spring Security, Apache) answer so before the platform sees the request${advice ? `; ${advice}` : ''}`;
  return new EncodedSlashRefusedError(
    answer.status,
    { method: request.method, url: request.url },
    answer.body,
    explanation,
  );
}
