/*
 * The text of a JSON file a user names (a --map, a shape, order routes): saved by the same people and editors as the
 * inputs, so as Notepad's "Unicode" (UTF-16 LE with a BOM) or "UTF-8 with BOM" as often as plain UTF-8.
 */

/**
 * A file's text when its bytes say it is UTF-16: a byte-order mark (FF FE little-endian, Notepad's "Unicode"; FE FF
 * big-endian), or, without one, a zero byte beside the first character, as JSON's first character is ASCII (RFC 4627's
 * detection). Undefined for any other file.
 */
export function utf16Text(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  if (bytes.length < 2 || bytes.length % 2 !== 0) return undefined;
  if (bytes[0] !== 0 && bytes[1] === 0) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0 && bytes[1] !== 0) return new TextDecoder('utf-16be').decode(bytes);
  return undefined;
}

/** A JSON file's text: UTF-16 as utf16Text reads it, else UTF-8 without its BOM (JSON.parse refuses U+FEFF). */
export function jsonFileText(bytes: Uint8Array): string {
  const utf16 = utf16Text(bytes);
  if (utf16 !== undefined) return utf16;
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  return new TextDecoder('utf-8').decode(body);
}
