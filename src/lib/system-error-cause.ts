/**
 * A system call's failure in the system's own words, without the call (`ENOSPC: no space left on device` of
 * `ENOSPC: no space left on device, write`): undefined for an error that is not a system call's.
 */
export function systemErrorCause(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string' || !(error instanceof Error)) return undefined;
  return error.message.startsWith(`${code}:`) ? (error.message.split(',')[0] ?? code) : code;
}
