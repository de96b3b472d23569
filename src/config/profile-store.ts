import { accessSync, chmodSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import Conf from 'conf';
import { ConfigError } from '../base/errors.js';
import { makePrivateFolder } from '../lib/private-file.js';
import { systemErrorCause } from '../lib/system-error-cause.js';
import { withShortLock } from './short-lock.js';
import { checkConfigFolderSafety } from './folder-safety.js';
import type { ProfileData } from './settings.js';
import { printable } from '../lib/printable.js';
import { refuseToMakeTheHome } from './location.js';
import { userName } from '../lib/file-owners.js';

interface ConfigFile {
  profiles: Record<string, ProfileData>;
}

/** Profiles on disk: one JSON file, 0600, in a 0700 folder, written atomically by conf. */
export class ProfileStore {
  readonly directory: string;
  readonly file: string;
  private conf: Conf<ConfigFile> | undefined;

  private readonly openFile: (options: ConstructorParameters<typeof Conf<ConfigFile>>[0]) => Conf<ConfigFile>;
  private readonly lockWaitMs?: number;
  /**
   * `openFile` opens the config file; a test may hand one whose writes fail (a full disk). `lockWaitMs` is how long a
   * write waits for another command's write to finish (short-lock.ts); a test may shorten it.
   */
  constructor(
    directory: string,
    openFile: (options: ConstructorParameters<typeof Conf<ConfigFile>>[0]) => Conf<ConfigFile> = (options) =>
      new Conf<ConfigFile>(options),
    lockWaitMs?: number,
  ) {
    this.openFile = openFile;
    this.lockWaitMs = lockWaitMs;

    this.directory = directory;
    this.file = join(directory, 'config.json');
  }

  profileNames(): string[] {
    return Object.keys(this.profiles()).toSorted();
  }

  read(name: string): ProfileData | undefined {
    return this.profiles()[name];
  }

  /** Merges `changes` into a profile (creating it); an undefined value removes that key. */
  update(name: string, changes: Readonly<Record<string, string | undefined>>): ProfileData {
    return this.updateIf(name, () => true, changes) as ProfileData;
  }

  /**
   * Merges `changes` into a profile only if `stillFits` accepts the profile as it is on disk at that moment, read
   * under the same lock as the write: undefined (nothing written) when it does not. A command that ran for an hour
   * must not write what it read at its start over a `login` made meanwhile.
   */
  updateIf(
    name: string,
    stillFits: (current: Readonly<ProfileData>) => boolean,
    changes: Readonly<Record<string, string | undefined>>,
  ): ProfileData | undefined {
    // Read, changed and written under a lock (conf's first open too, which writes its defaults into a new file):
    // another command saving its profile at the same moment waits, and neither writes back a file without the
    // other's change.
    return this.locked(() => {
      const profiles = { ...this.profiles() };
      if (!stillFits({ ...profiles[name] })) return undefined;
      const profile: ProfileData = { ...profiles[name] };
      for (const [key, value] of Object.entries(changes)) {
        if (value === undefined) delete profile[key];
        else profile[key] = value;
      }
      profiles[name] = profile;
      this.write(profiles);
      return profile;
    });
  }

  private locked<T>(work: () => T): T {
    try {
      refuseToMakeTheHome(this.directory);
      makePrivateFolder(this.directory);
      // The folder is judged before the lock's file is made in it, as before config.json is written there.
      checkConfigFolderSafety(this.directory, this.file);
      return withShortLock(`${this.file}.lock`, work, { waitMs: this.lockWaitMs });
    } catch (error) {
      throw this.explain(error);
    }
  }

  /**
   * Whether the config folder could be created and written, checked without creating anything (a login that then
   * fails stores nothing): a command that will save learns it before its work, not after a token was issued.
   */
  checkWritable(): void {
    try {
      refuseToMakeTheHome(this.directory);
      // The folder, or the nearest part of its path that exists, must be a folder this user may write in.
      let existing = resolve(this.directory);
      while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
      if (!statSync(existing).isDirectory())
        throw Object.assign(new Error(`${existing} is not a folder`), {
          code: existing === resolve(this.directory) ? 'EEXIST' : 'ENOTDIR',
        });
      accessSync(existing, constants.W_OK);
    } catch (error) {
      throw this.explain(error);
    }
    checkConfigFolderSafety(this.directory, this.file);
  }

  private profiles(): Record<string, ProfileData> {
    // Reading never creates anything: a cron user with only environment settings needs no config folder.
    if (!this.conf && !this.fileIsThere()) return {};
    try {
      const profiles = this.open().get('profiles');
      if (profiles === null || typeof profiles !== 'object' || Array.isArray(profiles)) {
        throw new ConfigError(
          `Config file ${printable(this.file)} has no "profiles" object. Fix it, or delete it and run b2bctl login again.`,
          this.file,
        );
      }
      return Object.fromEntries(
        Object.entries(profiles as Record<string, unknown>).map(([name, values]) => [
          name,
          this.profileText(name, values),
        ]),
      );
    } catch (error) {
      throw this.explain(error);
    }
  }

  /**
   * A profile's values as text, as `config set` writes them: a file edited by hand may say `"http.timeout": 5000` or
   * `true`, which are read as their text (they crashed each command that read them), and `null` as unset. A list or
   * an object is no setting's value: an error naming it.
   */
  private profileText(name: string, values: unknown): ProfileData {
    if (values === null || typeof values !== 'object' || Array.isArray(values))
      throw new ConfigError(
        `Config file ${printable(this.file)}: profile "${name}" is not an object of settings. Fix it, or remove the profile and run b2bctl login --profile ${name} again.`,
        this.file,
      );
    const profile: ProfileData = {};
    for (const [key, value] of Object.entries(values)) {
      if (typeof value === 'string') profile[key] = value;
      else if (typeof value === 'number' || typeof value === 'boolean') profile[key] = String(value);
      else if (value !== null)
        throw new ConfigError(
          `Config file ${printable(this.file)}: setting "${key}" of profile "${name}" is ${Array.isArray(value) ? 'a list' : 'an object'}, not a value. Fix it, or set it again with b2bctl config set ${key} VALUE --profile ${name}.`,
          this.file,
        );
    }
    return profile;
  }

  /**
   * Whether config.json is there to read. Not there is no profile yet; one this user may not look at (a folder of
   * another user's, 0700) is no empty configuration: existsSync said false for it, and a colleague was told
   * "no profiles yet" and shown every default (a user test). That is the folder's error, as login says it.
   */
  private fileIsThere(): boolean {
    try {
      statSync(this.file);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return false;
      throw this.explain(error);
    }
  }

  private write(profiles: Record<string, ProfileData>): void {
    try {
      this.open().set('profiles', profiles);
    } catch (error) {
      throw this.explain(error);
    }
  }

  private open(): Conf<ConfigFile> {
    if (this.conf) return this.conf;
    // conf leaves a new folder 0755; create it 0700 first, since it holds tokens.
    makePrivateFolder(this.directory);
    checkConfigFolderSafety(this.directory, this.file);
    try {
      chmodSync(this.directory, 0o700);
    } catch {
      // A folder we do not own keeps its mode; the file itself is still 0600.
    }
    // conf writes through atomically's temporary file, opened without O_EXCL|O_NOFOLLOW, which conf's public options
    // cannot replace with writeFileDurably: safe only because the folder was just checked to be this user's and
    // writable by no one else, so no other user can plant a link at that name (docs/security.md).
    this.conf = this.openFile({
      projectName: 'b2bctl',
      cwd: this.directory,
      configName: 'config',
      configFileMode: 0o600,
      defaults: { profiles: {} },
      accessPropertiesByDotNotation: false,
      clearInvalidConfig: false,
      watch: false,
    });
    return this.conf;
  }

  private explain(error: unknown): unknown {
    if (error instanceof ConfigError) return error;
    if (error instanceof SyntaxError) {
      return new ConfigError(
        `Config file ${printable(this.file)} is not valid JSON${syntaxErrorPlace(this.file)}. Fix it, or delete it and run b2bctl login again.`,
        this.file,
        { cause: error },
      );
    }
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    // mkdir of a path held by a file says EEXIST; a path through a file says ENOTDIR.
    if (code === 'EEXIST' || code === 'ENOTDIR') {
      return new ConfigError(
        `The config folder ${printable(this.directory)} cannot be a folder: a file is in the way on that path (${code}). Point B2BCTL_CONFIG_DIR (or XDG_CONFIG_HOME) at a folder this user can write, or move that file.`,
        this.file,
        { cause: error },
      );
    }
    // A full disk: the bare `ENOSPC: no space left on device, write` (exit 1) named no file. The file is replaced
    // whole or not at all (conf writes beside it, then renames).
    if (code === 'ENOSPC' || code === 'EDQUOT') {
      return new ConfigError(
        `Cannot write the config file ${printable(this.file)} (${systemErrorCause(error)}): nothing was saved in it. Make room on its disk, or set B2BCTL_CONFIG_DIR (or XDG_CONFIG_HOME) to a folder on another disk.`,
        this.file,
        { cause: error },
      );
    }
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS' || code === 'ENOENT') {
      return new ConfigError(
        `Cannot use the config folder ${printable(this.directory)} (${code}${code === 'EACCES' || code === 'EPERM' ? otherOwnerOf(this.directory) : ''}). Set B2BCTL_CONFIG_DIR (or XDG_CONFIG_HOME) to a folder this user can write.`,
        this.file,
        { cause: error },
      );
    }
    return error;
  }
}

/**
 * `: /srv/shared/b2bctl belongs to root (uid 0)` when the config folder (or the nearest folder of its path this user
 * can look at) is another user's: who can open it, or hand it over. Empty when it is this user's.
 */
function otherOwnerOf(directory: string): string {
  // The effective id: the one the system judged the access by.
  const uid = process.geteuid?.();
  if (uid === undefined) return '';
  // stat, not existsSync: the folder of a path this user may not search is the one to name.
  for (let path = resolve(directory); ; path = dirname(path)) {
    try {
      const owner = statSync(path).uid;
      return owner === uid ? '' : `: ${printable(path)} belongs to ${userName(owner)}`;
    } catch {
      if (dirname(path) === path) return '';
    }
  }
}

/**
 * Where the config file's JSON breaks (` at line 3, column 14`), or nothing. conf hides JSON.parse's message, which
 * quotes the text around the failure: the file holds the token. The line and column alone quote nothing.
 */
function syntaxErrorPlace(file: string): string {
  try {
    JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const place = /line (\d+) column (\d+)/.exec(error instanceof Error ? error.message : '');
    if (place) return ` at line ${place[1]}, column ${place[2]}`;
  }
  return '';
}
