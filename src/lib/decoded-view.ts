/**
 * A quoted text as its reader will read it once decoded, each decoded character tied to the stretch of the text it
 * was written as: where a known secret is found in the decoded text, that stretch of the text as written is what
 * is masked (secret-values.ts). Pure.
 *
 * The escapes decoded are closed sets, whichever characters the writer chose to escape: a JSON string's (`\/`,
 * `\"`, `\\`, `\n`…, and `\uXXXX` for any character, as PHP writes `/` and `ê`, Python `ê` and Go `&`, `<`, `>`), a
 * URL's or a form's (`%2F`, `%C3%AA`), and an HTML page's (`&#x2f;`, `&#47;`, `&amp;`, `&shy;`; a tag such as
 * `<wbr>` or `</span>` reads as nothing, as its reader sees it). One pass over the text, no pattern per secret: a
 * bulk run quotes thousands of answers, each with another customer's password.
 */

export interface DecodedView {
  /** The text decoded, in UTF-16 code units. */
  text: string;
  /** For each code unit of `text`, where the stretch of the source it was written as starts… */
  from: Int32Array;
  /** …and ends (exclusive). */
  to: Int32Array;
}

/** JSON's one-character escapes (`\n`), by the character after the backslash. */
const jsonShortEscapes: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/** HTML's named references of the characters an HTML writer escapes. */
const htmlNamedReferences: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  shy: '\u00ad',
};

const jsonUnicodeEscape = /\\u([0-9a-fA-F]{4})/y;
const htmlReference = /&(?:#[xX]([0-9a-fA-F]{1,6})|#(\d{1,7})|(amp|lt|gt|quot|apos|nbsp|shy));/y;
/** An HTML tag (`<wbr>`, `</span>`, `<br/>`): it splits no word a reader sees, so it decodes to nothing. */
const htmlTag = /<[A-Za-z/!][^<>]{0,200}>/y;
const percentByte = /%([0-9a-fA-F]{2})/y;

/** One decoded character: its text (one or two code units) and how many characters of the source it took. */
interface Escape {
  decoded: string;
  length: number;
}

/** Where an escape may start: a JSON string's `\\`, a URL's `%`, an HTML page's `&` and `<`. */
const escapeStart = /[\\%&<]/g;

/** The text decoded (see the module's comment); a character that starts no escape stands for itself. */
export function decodedView(source: string): DecodedView {
  const from = new Int32Array(source.length);
  const to = new Int32Array(source.length);
  const pieces: string[] = [];
  let length = 0;
  let at = 0;
  escapeStart.lastIndex = 0;
  // Runs of plain text copied whole: a large error page is read in a few slices, not a character at a time.
  for (let start = escapeStart.exec(source); ; start = escapeStart.exec(source)) {
    const end = start?.index ?? source.length;
    for (let index = at; index < end; index++, length++) {
      from[length] = index;
      to[length] = index + 1;
    }
    pieces.push(source.slice(at, end));
    if (start === null) break;
    const escape = escapeAt(source, end) ?? { decoded: source[end] as string, length: 1 };
    for (let unit = 0; unit < escape.decoded.length; unit++, length++) {
      from[length] = end;
      to[length] = end + escape.length;
    }
    pieces.push(escape.decoded);
    at = end + escape.length;
    escapeStart.lastIndex = at;
  }
  // An escape is never shorter than what it decodes to, so the arrays are long enough.
  return { text: pieces.join(''), from: from.subarray(0, length), to: to.subarray(0, length) };
}

function escapeAt(source: string, at: number): Escape | undefined {
  const character = source[at];
  if (character === '\\') return jsonEscapeAt(source, at);
  if (character === '%') return percentEscapeAt(source, at);
  if (character === '&') return htmlReferenceAt(source, at);
  if (character === '<') {
    htmlTag.lastIndex = at;
    const tag = htmlTag.exec(source);
    return tag ? { decoded: '', length: tag[0].length } : undefined;
  }
  return undefined;
}

function jsonEscapeAt(source: string, at: number): Escape | undefined {
  jsonUnicodeEscape.lastIndex = at;
  const unicode = jsonUnicodeEscape.exec(source);
  if (unicode) return { decoded: String.fromCharCode(Number.parseInt(unicode[1] as string, 16)), length: 6 };
  const short = jsonShortEscapes[source[at + 1] ?? ''];
  return short === undefined ? undefined : { decoded: short, length: 2 };
}

function htmlReferenceAt(source: string, at: number): Escape | undefined {
  htmlReference.lastIndex = at;
  const reference = htmlReference.exec(source);
  if (!reference) return undefined;
  const [whole, hex, decimal, name] = reference;
  if (name !== undefined) return { decoded: htmlNamedReferences[name] as string, length: whole.length };
  const code = hex === undefined ? Number(decimal) : Number.parseInt(hex, 16);
  return code > 0x10ffff ? undefined : { decoded: String.fromCodePoint(code), length: whole.length };
}

/** A URL's or a form's `%XX`, or the `%XX` bytes of one UTF-8 character (`%C3%AA`); undefined when they are not. */
function percentEscapeAt(source: string, at: number): Escape | undefined {
  const lead = percentByteAt(source, at);
  if (lead === undefined) return undefined;
  if (lead < 0x80) return { decoded: String.fromCharCode(lead), length: 3 };
  const following = lead >= 0xf0 && lead <= 0xf4 ? 3 : lead >= 0xe0 ? 2 : lead >= 0xc2 ? 1 : -1;
  if (following < 0 || lead > 0xf4) return undefined;
  let code = lead & (0x3f >> following);
  for (let index = 1; index <= following; index++) {
    const byte = percentByteAt(source, at + 3 * index);
    if (byte === undefined || (byte & 0xc0) !== 0x80) return undefined;
    code = (code << 6) | (byte & 0x3f);
  }
  return code > 0x10ffff ? undefined : { decoded: String.fromCodePoint(code), length: 3 * (following + 1) };
}

function percentByteAt(source: string, at: number): number | undefined {
  percentByte.lastIndex = at;
  const byte = percentByte.exec(source);
  return byte ? Number.parseInt(byte[1] as string, 16) : undefined;
}

/**
 * The view with its whitespace and invisible characters (a soft hyphen, a zero-width space) left out, each code unit
 * tied to its stretch of the source as before: a long secret a message wrapped at a fixed width (`PlainToken\nSecret…`)
 * or an HTML page broke where it may (`PlainToken&shy;Secret…`) reads whole in it.
 */
export function withoutWhitespace(view: DecodedView): DecodedView {
  const from = new Int32Array(view.text.length);
  const to = new Int32Array(view.text.length);
  const pieces: string[] = [];
  let length = 0;
  for (const run of view.text.matchAll(/[^\s\u00ad\u200b-\u200d\u2060\ufeff]+/g)) {
    for (let unit = run.index; unit < run.index + run[0].length; unit++, length++) {
      from[length] = view.from[unit] as number;
      to[length] = view.to[unit] as number;
    }
    pieces.push(run[0]);
  }
  return { text: pieces.join(''), from: from.subarray(0, length), to: to.subarray(0, length) };
}
