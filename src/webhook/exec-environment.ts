import { isSecretName, secretsOfVariables } from '../lib/secret-values.js';
import { commandLineWords, urlShownSafely } from '../lib/shown-target.js';
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
 * variables passed with `--exec-env` and the secrets its command line holds itself (secretsOnCommandLine). Masked in
 * what the receiver logs and keeps of that output.
 */
export function secretsGivenTo(environment: ExecEnvironment, command: string): string[] {
  const passed: Record<string, string | undefined> = {};
  for (const name of environment.names) passed[name] = environment.parent[name];
  return [...secretsOfVariables(passed), ...secretsOnCommandLine(command).map((secret) => secret.value)];
}

/**
 * What an `--exec` command line holds that is a secret, by the rule that masks them (a name like a secret's, or a URL
 * with a credential): they sit in the receiver's own argv, which every local user reads in `ps` for as long as it
 * runs. Each named as the warning names it, never by its value.
 */
export function secretAssignmentsIn(command: string): string[] {
  return [...new Set(secretsOnCommandLine(command).map((secret) => secret.shown))];
}

/**
 * Every secret written on a command line, in any of its simple commands (a user test: `export A=…; ./run.sh` and
 * `env A=… ./run.sh` were missed): a variable set before the program, after `env` or `export` (`ERP_SENHA`); an
 * option named like a secret, joined to its value or the next word (`--password=…`); curl's `-u user:password`;
 * a URL with a credential. A value the shell expands (`$(cat /etc/erp/token)`, `$ERP_TOKEN`) is no secret there:
 * the process list shows the text, not what it reads.
 */
function secretsOnCommandLine(command: string): { shown: string; value: string }[] {
  const found: { shown: string; value: string }[] = [];
  for (const words of commandLineWords(command)) {
    let index = ['env', 'export', 'declare', 'readonly', 'local'].includes(words[0] ?? '') ? 1 : 0;
    for (; index < words.length; index++) {
      const assignment = /^([A-Za-z_]\w*)=(.*)$/s.exec(words[index] as string);
      if (!assignment) break;
      const [, name, value] = assignment as unknown as [string, string, string];
      if (literal(value) && secretsOfVariables({ [name]: value }).length > 0) found.push({ shown: name, value });
    }
    for (; index < words.length; index++) {
      const secret = argumentSecret(words[index] as string, words[index + 1]);
      if (secret !== undefined && literal(secret.value)) found.push(secret);
    }
  }
  return found;
}

/** A program argument holding a secret (with the next word, for an option that takes one), or undefined. */
function argumentSecret(word: string, next: string | undefined): { shown: string; value: string } | undefined {
  const option = /^--?([A-Za-z][\w-]*)(?:=(.*))?$/s.exec(word);
  if (option) {
    const [, name, joined] = option as unknown as [string, string, string | undefined];
    // curl's (and wget's) user and password: `-u erp:secret`, `--user erp:secret`.
    if (['u', 'user'].includes(name)) {
      const pair = joined ?? next ?? '';
      const colon = pair.indexOf(':');
      return colon > 0 && colon < pair.length - 1
        ? { shown: `${word.split('=')[0]} user:…`, value: pair.slice(colon + 1) }
        : undefined;
    }
    const value = joined ?? (next?.startsWith('-') === false ? next : undefined);
    return value && isSecretName(name) ? { shown: `--${name}=…`.replace(/^--(\w)=/, '-$1='), value } : undefined;
  }
  const credentials = /^[a-z][\w+.-]*:\/\/[^\s/@]*:([^\s/@]+)@/i.exec(word);
  return credentials ? { shown: urlShownSafely(word), value: credentials[1] as string } : undefined;
}

/** A value as written, with nothing the shell expands in it: what the process list shows is the secret itself. */
function literal(value: string): boolean {
  return value !== '' && !/\$[({\w]|`/.test(value);
}

/** Parses `--exec-env NAME` (repeatable): a variable's name, as a shell writes it. */
export function isVariableName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name);
}
