import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { everySetting } from '../../config/settings.js';
import { type DescribedCandidate, describedCandidates } from './candidates.js';
import { type CompletionShell, completionScript } from './scripts.js';

export interface CompletionScriptOptions {
  shell: CompletionShell;
}

/** `b2bctl completion SHELL`: the script to source or install, on stdout. */
export async function runScript(options: CompletionScriptOptions, context: Context): Promise<void> {
  context.io.stdout.write(completionScript(options.shell));
}

export interface CompleteOptions {
  root: Command;
  words: readonly string[];
  /** `--descriptions`: each line `candidate<TAB>description`, for zsh and fish. */
  descriptions?: boolean;
}

/** `b2bctl __complete -- WORDS...`: one candidate per line for the shell scripts. Never fails loudly: a TAB must not. */
export async function runComplete(options: CompleteOptions, context: Context): Promise<void> {
  const store = await context.profiles();
  const candidates = describedCandidates({
    root: options.root,
    words: options.words.length > 0 ? options.words : [''],
    profileNames: () => {
      try {
        return store.profileNames();
      } catch {
        return [];
      }
    },
    routePaths: () => routePaths(),
    settingKeys: (verb) => settingKeys(verb),
  });
  const lines = candidates.map(({ value, description }) =>
    options.descriptions && description !== '' ? `${value}\t${description}` : value,
  );
  if (lines.length > 0) context.io.stdout.write(`${lines.join('\n')}\n`);
}

/**
 * The keys `config VERB` takes, from the settings table: `get` every key but a secret (refused there), `set` and
 * `unset` only those a user sets (not the token and its times, which login writes), as `config set --help` lists them.
 */
function settingKeys(verb: string): DescribedCandidate[] | undefined {
  if (verb !== 'get' && verb !== 'set' && verb !== 'unset') return undefined;
  return everySetting
    .filter((setting) => !setting.secret && (verb === 'get' || !setting.managed))
    .map((setting) => ({ value: setting.key, description: setting.description }));
}

/** The default path of every platform route setting (`paths.*`), as a user starts typing them. */
function routePaths(): string[] {
  const paths = everySetting.filter((setting) => setting.key.startsWith('paths.') && setting.defaultValue);
  return [...new Set(paths.map((setting) => setting.defaultValue as string))].toSorted();
}
