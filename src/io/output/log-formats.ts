/**
 * How stderr lines are written: `text` for people (an ISO-8601 time first when stderr is not a terminal), `plain`
 * never timestamped (for a journal or wrapper that adds its own times), `json` one object per line for log shippers.
 * Apart from the logger so that parsing `--log-format` does not load it.
 */
export const logFormats = ['text', 'plain', 'json'] as const;
export type LogFormat = (typeof logFormats)[number];

/** A log format's name as given (B2BCTL_LOG_FORMAT), or undefined for anything else. */
export function logFormatOf(name: string | undefined): LogFormat | undefined {
  return logFormats.find((format) => format === name);
}
