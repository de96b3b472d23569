import { secretsOfVariables } from '../lib/secret-values.js';
import { leadingAssignments } from '../lib/shown-target.js';
import type { StoredEvent } from './store/types.js';

/** What an `--exec` command gets of the receiver's environment: `PATH`, `HOME`, `LANG`, `TZ` and the names given. */
export interface ExecEnvironment {
  /** The receiver's own environment. */
  parent: Readonly<Record<string, string | undefined>>;
  /** Further variables passed on by name (`--exec-env NAME`). */
  names: readonly string[];
  /**
   * With --fetch-orders: the order file this event's fetch wrote, if it holds what that event wrote (passed as
   * B2BCTL_ORDER_FILE); undefined otherwise (not an orders event, the fetch failed, or a later event's version is there).
   */
  orderFile?: (event: StoredEvent) => string | undefined;
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
  const orderFile = environment.orderFile?.(event);
  return {
    ...passed,
    B2BCTL_EVENT_KIND: event.kind,
    B2BCTL_EVENT_ID: String(event.id),
    B2BCTL_DELIVERY_ID: event.deliveryId,
    ...(orderFile === undefined ? {} : { B2BCTL_ORDER_FILE: orderFile }),
  };
}

/**
 * The secrets a command run is given, which its output may quote (`login failed for token …`): the values of the
 * variables passed with `--exec-env` and of those the command line sets itself that are named like secrets, or are
 * URLs with credentials (secret-values.ts). Masked in what the receiver logs and keeps of that output.
 */
export function secretsGivenTo(environment: ExecEnvironment, command: string): string[] {
  const passed: Record<string, string | undefined> = {};
  for (const name of environment.names) passed[name] = environment.parent[name];
  return [...secretsOfVariables(passed), ...secretsOfVariables(leadingAssignments(command))];
}

/**
 * The variables an `--exec` command line sets itself (`ERP_PASSWORD=… ./import.sh`) whose values are secrets, by
 * the rule that masks them (named like a secret, or a URL with a credential): they sit in the receiver's own argv,
 * which every local user reads in `ps` for as long as it runs.
 */
export function secretAssignmentsIn(command: string): string[] {
  return Object.entries(leadingAssignments(command))
    .filter(([name, value]) => secretsOfVariables({ [name]: value }).length > 0)
    .map(([name]) => name);
}

/** Parses `--exec-env NAME` (repeatable): a variable's name, as a shell writes it. */
export function isVariableName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name);
}
