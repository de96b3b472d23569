import { messageOfBody, PlatformError, type PlatformRequestInfo } from '../base/errors.js';
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
 * The refusal of an encoded "/" in `path`, when the answer reads as one; undefined otherwise (a JSON 400 is the
 * answer of whoever wrote it, and says so in its own words). `advice` names what sends the value without its "/".
 */
export function encodedSlashRefusal(
  answer: { status: number; text: string; contentType: string | undefined; body: unknown },
  request: PlatformRequestInfo & { path: string },
  advice: string | undefined,
): EncodedSlashRefusedError | undefined {
  if (answer.status !== 400 && answer.status !== 404) return undefined;
  if (!/%2F/i.test(request.path)) return undefined;
  if (answer.body !== null && typeof answer.body === 'object')
    return answer.status === 404 ? decodedSlashNotFound(answer, request, advice) : undefined;
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

/**
 * A JSON 404 to a path holding an encoded "/" whose words quote that path with the "/" decoded
 * (`rota desconhecida /v1/customer/11.222.333/0001-81`, Spring's `"path": "/v1/customer/11.222.333/0001-81"`): a
 * server in front of the platform decoded the `%2F` (nginx's `proxy_pass` with a URI part does, a user test), so the
 * platform saw another path and matched no route. It says nothing of the record, whatever its wording: the words are
 * kept, followed by why and the setting that sends the value without its "/". Undefined for any other JSON 404,
 * the platform's own "no such record" (a platform that got the `%2F` quotes it encoded, or not at all).
 */
function decodedSlashNotFound(
  answer: { status: number; text: string; body: unknown },
  request: PlatformRequestInfo & { path: string },
  advice: string | undefined,
): EncodedSlashRefusedError | undefined {
  const quoted = decodedPathQuoted(request.path, answer.text);
  if (quoted === undefined) return undefined;
  const said = messageOfBody(answer.body);
  const reason = `the answer quotes the path with its encoded "/" (%2F) decoded ("${quoted}"): a server in front of the platform decoded it (as nginx's proxy_pass with a path does), so the platform saw another path, and this 404 says nothing of the record`;
  return new EncodedSlashRefusedError(
    answer.status,
    { method: request.method, url: request.url },
    answer.body,
    `${said === undefined ? '' : `${said}; `}${reason}${advice ? `; ${advice}` : ''}`,
  );
}

/**
 * The part of `path` around a segment holding `%2F` (the segment before it and the segment, decoded:
 * `customer/11.222.333/0001-81`) when `text` quotes it so, JSON's escaped `\/` read as `/`; else undefined.
 */
function decodedPathQuoted(path: string, text: string): string | undefined {
  const segments = path.split('/');
  const plain = text.replaceAll('\\/', '/');
  for (const [index, segment] of segments.entries()) {
    if (index === 0 || !/%2F/i.test(segment)) continue;
    try {
      const quoted = `${decodeURIComponent(segments[index - 1] as string)}/${decodeURIComponent(segment)}`;
      if (plain.includes(quoted)) return quoted;
    } catch {
      // A segment that is not percent-encoding b2bctl wrote (a path the user gave): nothing to compare.
    }
  }
  return undefined;
}
