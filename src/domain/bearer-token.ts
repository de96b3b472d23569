/** What of a credential's text can be sent: in `Authorization: Bearer …`, or encoded. Pure. */

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

/**
 * The first control character of a credential that is not sent as written (a Basic pair, base64-encoded; a client
 * secret in a JSON body): a line feed, a carriage return, a NUL... (a tab aside, as in a header), described as
 * unsendableTokenCharacter describes one; undefined when there is none. No credential is made of them: one inside is
 * a file's second line or a Windows line end, which the other side would refuse as a wrong credential, or, sent in
 * a header, a request split in two.
 */
export function controlCharacterIn(credential: string): string | undefined {
  // Matching control characters is this pattern's purpose.
  // oxlint-disable-next-line no-control-regex
  const found = /[\x00-\x08\x0a-\x1f\x7f]/u.exec(credential)?.[0];
  return found === undefined ? undefined : unsendableTokenCharacter(found);
}

/**
 * The line refusing a credential given by the user that holds a character it cannot (exit 2, before anything is
 * sent), naming where it came from (`B2BCTL_WEBHOOK_FORWARD_TOKEN`, `the client secret file /etc/…`); undefined when
 * it holds none. `sentInHeader`: the credential goes as written in a header (a Bearer token), where anything
 * unsendableTokenCharacter finds is refused; otherwise only control characters are.
 */
export function credentialCharacterProblem(
  credential: string,
  source: string,
  sentInHeader: boolean,
): string | undefined {
  const found = sentInHeader ? unsendableTokenCharacter(credential) : controlCharacterIn(credential);
  if (found === undefined) return undefined;
  return `${source} holds ${found}, which ${sentInHeader ? 'no HTTP header can carry' : 'no credential is made of'}: give the credential alone, on one line.`;
}

/**
 * A secret without the one line end its file gave it: `B2BCTL_PASSWORD="$(cat file)"` keeps the CR of a file saved
 * on Windows (the shell takes only the LF), and the login was then refused as a wrong password; `echo` through a pipe
 * adds an LF. One line end only: a second one is a line of its own, which no secret is made of.
 */
export function withoutLineEnd(secret: string): string {
  return secret.replace(/\r?\n$|\r$/, '');
}
