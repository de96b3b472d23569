import type { StoredEvent } from './store/types.js';

/** What an `--exec` command gets of the receiver's environment: `PATH`, `HOME`, `LANG`, `TZ` and the names given. */
export interface ExecEnvironment {
  /** The receiver's own environment. */
  parent: Readonly<Record<string, string | undefined>>;
  /** Further variables passed on by name (`--exec-env NAME`). */
  names: readonly string[];
}

/** Enough to find programs, a home, a locale and a time zone. */
export const variablesAlwaysPassed: readonly string[] = ['PATH', 'HOME', 'LANG', 'TZ'];

/**
 * The environment of one `--exec` run: the few variables above and the event's own, nothing else. The receiver's
 * environment holds its client secret, `B2BCTL_PASSWORD`, proxy credentials: a command is given none of them
 * unless `--exec-env` names it.
 */
export function commandEnvironment(environment: ExecEnvironment, event: StoredEvent): Record<string, string> {
  const passed: Record<string, string> = {};
  for (const name of [...variablesAlwaysPassed, ...environment.names]) {
    const value = environment.parent[name];
    if (value !== undefined) passed[name] = value;
  }
  return {
    ...passed,
    B2BCTL_EVENT_KIND: event.kind,
    B2BCTL_EVENT_ID: String(event.id),
    B2BCTL_DELIVERY_ID: event.deliveryId,
  };
}

/** Parses `--exec-env NAME` (repeatable): a variable's name, as a shell writes it. */
export function isVariableName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name);
}
