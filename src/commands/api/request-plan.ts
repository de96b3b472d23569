import { UsageError } from '../../base/errors.js';
import { fillBranch } from '../../platform/branch.js';
import type { HttpMethod } from '../../platform/http-client.js';
import { bodyOfFields, type FieldFlag, parseField, queryOfFields } from './fields.js';

export const apiMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const satisfies readonly HttpMethod[];

/** What `b2bctl api` was asked, before anything is read or sent. */
export interface RequestFlags {
  path: string;
  method?: string;
  fields: readonly FieldFlag[];
  input?: string;
  headers: readonly string[];
  branch?: string;
  retryWrites: boolean;
}

/** The request as it will be sent (the body's text read already). */
export interface PlannedRequest {
  method: HttpMethod;
  path: string;
  query: Record<string, string[]>;
  headers: Record<string, string>;
  body?: string;
  branch?: string;
  safeToRepeat: boolean;
}

/** Reads a file's text for `-F key=@file` and `--input FILE` (`-` for stdin). */
export type TextReader = (source: string) => string;

/**
 * gh's rules: fields go into the query of a GET/HEAD (or beside `--input`), else into a JSON body; with fields or
 * `--input` and no `-X` the method is POST. Only GET and HEAD are retried unless `--retry-writes`.
 */
export function planRequest(
  flags: RequestFlags,
  branchSetting: string | undefined,
  read: TextReader,
  warn?: (message: string) => void,
): PlannedRequest {
  const method = methodOf(flags);
  const fields = flags.fields.map((field) => parseField(field, read, warn));
  const { path: filled, branch } = fillBranch(
    flags.path,
    flags.branch ?? branchSetting,
    `The path ${flags.path}`,
    '--branch',
  );
  if (flags.branch !== undefined && branch === undefined)
    throw new UsageError(
      `--branch fills {branch} in the path, and ${flags.path} has none; write it where the branch goes.`,
    );
  const { path, query } = splitQuery(filled);
  const headers = headersOf(flags.headers);
  const readOnly = method === 'GET' || method === 'HEAD';
  let body: string | undefined;
  if (flags.input !== undefined) {
    body = read(flags.input);
    for (const [name, values] of Object.entries(queryOfFields(fields))) (query[name] ??= []).push(...values);
  } else if (readOnly) {
    for (const [name, values] of Object.entries(queryOfFields(fields))) (query[name] ??= []).push(...values);
  } else if (fields.length > 0) {
    body = JSON.stringify(bodyOfFields(fields));
  }
  if (body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type'))
    headers['content-type'] = 'application/json';
  return { method, path, query, headers, body, branch, safeToRepeat: readOnly || flags.retryWrites };
}

function methodOf(flags: RequestFlags): HttpMethod {
  if (flags.method === undefined) return flags.fields.length > 0 || flags.input !== undefined ? 'POST' : 'GET';
  const method = flags.method.toUpperCase();
  if (!(apiMethods as readonly string[]).includes(method))
    throw new UsageError(`-X ${flags.method}: the method is one of ${apiMethods.join(', ')}.`);
  return method as HttpMethod;
}

/** A path with its own query string (`/v1/orders?status=PAID`): the path, and the query to add to. */
function splitQuery(path: string): { path: string; query: Record<string, string[]> } {
  if (!path.startsWith('/'))
    throw new UsageError(
      `The path "${path}" must start with /, such as /v1/contracts (the base URL comes from the profile).`,
    );
  const question = path.indexOf('?');
  const route = question < 0 ? path : path.slice(0, question);
  // `//v1/x` reads as a host (v1) and loses that segment; `..` (or `%2e%2e`) climbs out of the base URL's prefix.
  if (route.startsWith('//') || route.split('/').some((segment) => /^(\.|%2e){1,2}$/i.test(segment)))
    throw new UsageError(
      `The path "${route}" has ${route.startsWith('//') ? 'an empty first segment (//)' : 'a . or .. segment'}, which would send the request elsewhere than it says; write the route from the base URL, such as /v1/contracts.`,
    );
  const query: Record<string, string[]> = {};
  if (question < 0) return { path, query };
  for (const [name, value] of new URLSearchParams(path.slice(question + 1))) (query[name] ??= []).push(value);
  return { path: path.slice(0, question), query };
}

/** `-H 'Name: value'`; the Authorization header is the login's to set. */
function headersOf(lines: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim();
    if (colon <= 0 || !/^[!#$%&'*+.^`|~\w-]+$/.test(name))
      throw new UsageError(`-H "${line}": a header is 'Name: value', such as -H 'Accept: text/csv'.`);
    // Each its own reason: the token clause belongs to Authorization only (a user test).
    if (/^authorization$/i.test(name))
      throw new UsageError(`-H ${name}: b2bctl sets this header itself (the token comes from b2bctl login).`);
    if (/^host$/i.test(name))
      throw new UsageError(`-H ${name}: b2bctl sets this header itself (the host comes from the base URL).`);
    if (/^(content-length|transfer-encoding)$/i.test(name))
      throw new UsageError(`-H ${name}: b2bctl sets this header itself (from the body it sends).`);
    const value = line.slice(colon + 1).trim();
    // A line break would start another header (or end them), and the request would not be what was asked.
    if (/[\r\n\0]/.test(value)) throw new UsageError(`-H ${name}: a header's value is one line, without line breaks.`);
    // HTTP carries a value byte by byte: a character past U+00FF, or a control character, has no byte there, and the
    // HTTP library would refuse the request after the fact, which read as the platform being out of reach (exit 69).
    const unsendable = /[^\t\x20-\x7e\x80-\xff]/u.exec(value)?.[0];
    if (unsendable !== undefined) {
      const codePoint = `U+${(unsendable.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
      throw new UsageError(
        `-H ${name}: a header's value holds only printable Latin-1 characters (HTTP sends each as one byte), and ${codePoint} is not one; percent-encode it, or send it in the body.`,
      );
    }
    // The same name twice is one header with both values, as HTTP reads two lines of it (curl and gh send both).
    const key = name.toLowerCase();
    headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
  }
  return headers;
}
