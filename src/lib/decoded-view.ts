/**
 * A quoted text as its reader will read it once decoded, each decoded character tied to the stretch of the text it
 * was written as: where a known secret is found in the decoded text, that stretch of the text as written is what
 * is masked (secret-values.ts). Pure.
 *
 * The escapes decoded are closed sets, whichever characters the writer chose to escape: a JSON string's (`\/`,
 * `\"`, `\\`, `\n`…, and `\uXXXX` for any character, as PHP writes `/` and `ê`, Python `ê` and Go `&`, `<`, `>`), a
 * URL's or a form's (`%2F`, `%C3%AA`), and an HTML page's (`&#x2f;`, `&#47;` and `&#47`, every one of HTML5's named
 * references, `&sol;` `&amp;` `&shy;` `&ecirc;` `&euro;`, and the legacy ones without their `;`, `&ccedil`; a tag such
 * as `<wbr>` or `</span>` reads as nothing, as its reader sees it). One pass over the
 * text per round, no pattern per secret: a bulk run quotes thousands of answers, each with another customer's
 * password; a quote inside a quote takes a round more (decodedViews).
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

const jsonUnicodeEscape = /\\u([0-9a-fA-F]{4})/y;
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

/**
 * An HTML character reference at `at`, read as an HTML5 reader reads a page's text: any of HTML5's named references
 * (`&sol;`, `&Atilde;`, `&frac12;`, `&euro;`), the legacy ones without their `;` (`&ccedil`, `&copy`), numeric ones
 * with or without it (`&#47`, `&#x2f;`, `&#128;` as `€`, as the spec maps it). A name that is none stands for itself.
 */
function htmlReferenceAt(source: string, at: number): Escape | undefined {
  if (!/[#A-Za-z]/.test(source[at + 1] ?? '')) return undefined;
  htmlReferenceReader ??= newHtmlReferenceReader();
  return htmlReferenceReader(source, at);
}

let htmlReferenceReader: ((source: string, at: number) => Escape | undefined) | undefined;

/**
 * The reader of one reference: the `entities` package's decoder (the table htmlparser2, cheerio and markdown-it use,
 * kept to the HTML standard's list of 2,231 names) fed from the character after the `&`, which says how many
 * characters the reference took, so the view ties what it decodes to exactly them. Loaded on the first `&` that may
 * start one: its table takes a few milliseconds to build, which a command that quotes no page need not pay. A
 * require() rather than an import for that: esbuild bundles it as a module run on this first call (the bundle's
 * banner gives every chunk a require; vitest gives the sources one).
 */
function newHtmlReferenceReader(): (source: string, at: number) => Escape | undefined {
  const { DecodingMode, HtmlEntityDecoder } = require('entities/decode') as typeof import('entities/decode');
  let decoded = '';
  // Each UTF-16 code unit of a named reference's value comes as a call of its own, a numeric one's code point whole.
  const decoder = new HtmlEntityDecoder((codePoint) => {
    decoded += String.fromCodePoint(codePoint);
  });
  return (source, at) => {
    decoded = '';
    decoder.startEntity(DecodingMode.Legacy);
    const written = decoder.write(source, at + 1);
    // -1: the text ended inside the reference (`&ccedil` last), which end() reads as the text's end.
    const length = written < 0 ? decoder.end() : written;
    return length > 0 && decoded !== '' ? { decoded, length } : undefined;
  };
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
 * Rounds of decoding at most (decodedViews): a JSON text quoted as a string of another (`\\/`), a URL carried in
 * another URL's query (`%252F`), a page's `&amp;sol;` take two; a text nested deeper than this is no quote a reader
 * untangles by eye, and each round reads the whole text once.
 */
const mostDecodingRounds = 4;

/**
 * The text decoded again and again, one view per round, until a round changes nothing (at most mostDecodingRounds):
 * each view's code units tied to the stretch of the original source they were written as. The first round's view
 * always, though it reads as the source when the text holds no escape.
 */
export function decodedViews(source: string): DecodedView[] {
  const views = [decodedView(source)];
  if (views[0]?.text === source) return views;
  for (let round = 1; round < mostDecodingRounds; round++) {
    const last = views.at(-1) as DecodedView;
    const next = decodedView(last.text);
    if (next.text === last.text) break;
    views.push(composedView(last, next));
  }
  return views;
}

/** `inner` (a view of `outer.text`) tied to the source `outer` was decoded from. */
function composedView(outer: DecodedView, inner: DecodedView): DecodedView {
  const from = new Int32Array(inner.text.length);
  const to = new Int32Array(inner.text.length);
  for (let unit = 0; unit < inner.text.length; unit++) {
    from[unit] = outer.from[inner.from[unit] as number] as number;
    to[unit] = outer.to[(inner.to[unit] as number) - 1] as number;
  }
  return { text: inner.text, from, to };
}

/**
 * What splits no word a reader sees: whitespace and line breaks, Unicode's control and format characters (a zero-width
 * space, a soft hyphen, a bidi mark such as U+200E, a backspace, NUL), the invisible marks and fillers that are
 * letters to Unicode (U+034F, the Hangul fillers), an ANSI colour code (`ESC[0m`), and the ` | ` an `--exec`
 * output's kept lines are joined by in the receiver's log and dead letters (command-output.ts).
 */
// oxlint-disable-next-line no-control-regex
const invisibleSplit = /(?:\u001b\[[0-?]*[ -/]*[@-~]|\s\|\s|[\s\p{Cc}\p{Cf}\p{Z}\u034f\u115f\u1160\u3164\uffa0])+/gu;

/**
 * The view with what splits no word (invisibleSplit) left out, each code unit tied to its stretch of the source as
 * before: a long secret a message wrapped at a fixed width (`PlainToken\nSecret…`) or an HTML page broke where it
 * may (`PlainToken&shy;Secret…`) reads whole in it.
 */
export function withoutWhitespace(view: DecodedView): DecodedView {
  const from = new Int32Array(view.text.length);
  const to = new Int32Array(view.text.length);
  const pieces: string[] = [];
  let length = 0;
  let at = 0;
  for (let split = nextSplit(view.text, 0); ; split = nextSplit(view.text, at)) {
    const end = split?.index ?? view.text.length;
    for (let unit = at; unit < end; unit++, length++) {
      from[length] = view.from[unit] as number;
      to[length] = view.to[unit] as number;
    }
    pieces.push(view.text.slice(at, end));
    if (split === null) break;
    at = end + split[0].length;
  }
  return { text: pieces.join(''), from: from.subarray(0, length), to: to.subarray(0, length) };
}

/** A text with what splits no word (invisibleSplit) left out: a secret as the view without it reads it. */
export function withoutInvisible(text: string): string {
  return text.replace(invisibleSplit, '');
}

function nextSplit(text: string, at: number): RegExpExecArray | null {
  invisibleSplit.lastIndex = at;
  return invisibleSplit.exec(text);
}
