/**
 * A body's text read in the charset its `Content-Type` declares: one rule for the tax callback's both directions,
 * a cart the platform sends and an ERP's answer to it (`tax serve --forward-to`). A Java platform or a Brazilian ERP
 * often sends `charset=iso-8859-1`, whose accents read as UTF-8 became U+FFFD, a SKU's included (user tests).
 */

/** The charset a `Content-Type` declares, or undefined for none or UTF-8: read as UTF-8, the fast path. */
export function declaredCharset(contentType: string | undefined): string | undefined {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1];
  return charset === undefined || /^utf-?8$/i.test(charset) ? undefined : charset;
}

/**
 * A decoder for a declared charset, or undefined when no decoder knows it. WHATWG labels: iso-8859-1 and latin1
 * read as windows-1252, as browsers read them.
 */
export function decoderOf(charset: string): InstanceType<typeof TextDecoder> | undefined {
  try {
    return new TextDecoder(charset);
  } catch {
    return undefined;
  }
}
