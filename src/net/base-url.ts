/**
 * One spelling per platform address, so a cached token, a session and a resumed run agree on which
 * store they mean: lower-case scheme and host (URL does that), no default port, no trailing slash.
 * Returns the text unchanged when it is not a URL at all (the caller's own check reports that).
 */
export function normalizeBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return text;
  }
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}${url.search}`;
}

/** Whether two base URLs name the same platform, after normalising both. */
export function sameBaseUrl(left: string, right: string): boolean {
  const a = normalizeBaseUrl(left);
  const b = normalizeBaseUrl(right);
  if (a === b) return true;
  try {
    const first = new URL(a);
    const second = new URL(b);
    return (
      first.protocol === second.protocol &&
      first.port === second.port &&
      first.pathname === second.pathname &&
      // The names of this machine's own address are one server: a token issued for localhost is good for
      // 127.0.0.1. Another loopback address (127.0.0.2) is another listener, which any local user may run.
      isLocalhostAlias(first.hostname) &&
      isLocalhostAlias(second.hostname)
    );
  } catch {
    return false;
  }
}

/** `localhost`, 127.0.0.1 and ::1: the addresses the name localhost stands for. */
function isLocalhostAlias(hostname: string): boolean {
  return ['localhost', '127.0.0.1', '[::1]'].includes(hostname.toLowerCase());
}
