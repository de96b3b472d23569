/** What of a token text can go in `Authorization: Bearer …`. Pure. */

/**
 * A token as it is sent: without the whitespace around it. A token route may answer `"TOK…\n"` (a template or a
 * gateway that adds a line end), a file or a variable may end in one; no token is made of those, and a line end
 * cannot go in a header, so it is dropped wherever a token is read, as curl and gh read a token from a file.
 */
export function bearerTokenText(token: string): string {
  return token.trim();
}

/**
 * The first character of `token` that no HTTP header value can carry, described for a message (`a line feed
 * (LF)`), or undefined when every one can. The rule is RFC 9110's field value as Node and undici check it: a tab,
 * visible ASCII, spaces and bytes 0x80-0xFF; a CR or LF inside would split the header, so they refuse the request.
 */
export function unsendableTokenCharacter(token: string): string | undefined {
  const found = /[^\t\x20-\x7e\x80-\xff]/u.exec(token)?.[0];
  if (found === undefined) return undefined;
  if (found === '\r') return 'a carriage return (CR)';
  if (found === '\n') return 'a line feed (LF)';
  const codePoint = `U+${(found.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
  return found.charCodeAt(0) <= 0x7f ? `the control character ${codePoint}` : `the character ${codePoint}`;
}
