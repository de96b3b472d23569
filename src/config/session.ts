import { AuthError, UsageError } from '../base/errors.js';
import { normalizeBaseUrl, sameBaseUrl } from '../net/base-url.js';
import type { ProfileStore } from './profile-store.js';
import {
  everySetting,
  settingOrigin,
  type ProfileData,
  type ResolvedSetting,
  readSetting,
  resolveSetting,
  type SettingKey,
  type SettingLayers,
  type SettingValue,
} from './settings.js';
import { b2bctlLine, configFolderFromEnvironment } from './location.js';
import { shellWord } from '../lib/shell-word.js';

/** The profile a command runs with, and every setting resolved flag > env > profile > default. */
export class Session {
  readonly profileName: string;
  readonly store: ProfileStore;
  private profileData: ProfileData;
  private readonly flags: Readonly<Record<string, string | undefined>>;
  private readonly env: Readonly<Record<string, string | undefined>>;

  constructor(options: {
    store: ProfileStore;
    profileName: string;
    profile: ProfileData | undefined;
    flags: Readonly<Record<string, string | undefined>>;
    env: Readonly<Record<string, string | undefined>>;
  }) {
    this.store = options.store;
    this.profileName = options.profileName;
    this.profileData = options.profile ?? {};
    this.flags = options.flags;
    this.env = options.env;
  }

  get profile(): Readonly<ProfileData> {
    return this.profileData;
  }

  /** The text of a setting as given, and where it came from (for `config` and messages). */
  setting(key: SettingKey): ResolvedSetting {
    return resolveSetting(key, this.layers());
  }

  /** `the stock.schema setting (from B2BCTL_STOCK_SCHEMA)`: for a message about a value read from a setting. */
  origin(key: SettingKey): string {
    return settingOrigin(key, this.layers());
  }

  /** The typed value of a setting (its parser's type); a bad value is a usage error naming key, value and source. */
  get<Key extends SettingKey>(key: Key): SettingValue<Key> {
    return readSetting(key, this.layers());
  }

  /**
   * Every setting whose value (from a flag, the environment or the profile) its parser refuses, each with the usage
   * error a command reading it stops on: for the checks that look at a whole environment before any job runs in it.
   */
  refusedSettings(): { key: SettingKey; error: UsageError }[] {
    return everySetting.flatMap((definition) => {
      try {
        this.get(definition.key);
        return [];
      } catch (error) {
        if (!(error instanceof UsageError)) throw error;
        return [{ key: definition.key, error }];
      }
    });
  }

  private layers(): SettingLayers {
    return { flags: this.flags, env: this.env, profile: this.profileData, profileName: this.profileName };
  }

  /** The platform's base URL, normalised (docs/platform.md, "Logging in"), or a usage error that says where to give it. */
  requireBaseUrl(): string {
    const baseUrl = this.get('baseUrl');
    if (!baseUrl) {
      throw new UsageError(
        `No base URL for profile "${this.profileName}". Pass --base-url URL, set B2BCTL_BASE_URL, or run b2bctl login --base-url URL${this.profileFlag()}.`,
      );
    }
    return normalizeBaseUrl(baseUrl);
  }

  /** Writes to this profile on disk and keeps the in-memory view in step. */
  save(changes: Readonly<Record<string, string | undefined>>): void {
    this.profileData = this.store.update(this.profileName, changes);
  }

  /**
   * Writes `changes` to this profile only if it still names the base URL and the user this session read at its
   * start (another command may have logged the profile in elsewhere meanwhile): whether it wrote. The check and the
   * write are one step under the profile file's lock.
   */
  saveIfStillItsOwn(changes: Readonly<Record<string, string | undefined>>): boolean {
    const saved = this.store.updateIf(this.profileName, (current) => this.stillItsOwn(current), changes);
    if (saved === undefined) return false;
    this.profileData = saved;
    return true;
  }

  /**
   * This profile as it is on disk now, when it still names the base URL and the user this session read at its start:
   * what another command (a cron job of the same profile) saved meanwhile. Undefined when it names others, or is gone.
   */
  savedProfileIfStillItsOwn(): Readonly<ProfileData> | undefined {
    const current = this.store.read(this.profileName);
    return current !== undefined && this.stillItsOwn(current) ? current : undefined;
  }

  /** Whether `current` names the base URL and the user this session read at its start. */
  private stillItsOwn(current: Readonly<ProfileData>): boolean {
    const { baseUrl, username } = this.profileData;
    return (
      baseUrl !== undefined &&
      current.baseUrl !== undefined &&
      sameBaseUrl(current.baseUrl, baseUrl) &&
      current.username === username
    );
  }

  /**
   * Whether the profile's cached token may be sent to the base URL this run uses: a profile's token was issued for
   * the store it logged in to, so another (`--base-url`, B2BCTL_BASE_URL) gets it from no command. A profile not
   * yet tied to a store fits any. The one rule for every command that sends the token, doctor and whoami included.
   */
  profileTokenFitsBaseUrl(): boolean {
    const profileBaseUrl = this.profileData.baseUrl;
    const current = this.get('baseUrl');
    return !profileBaseUrl || (current !== undefined && sameBaseUrl(profileBaseUrl, current));
  }

  /**
   * Why there is no usable token, so an operator knows whether to log in, renew or fix the base URL:
   * none cached, expired, cached for another base URL, or refused by the platform.
   */
  notLoggedIn(reason: 'no token' | 'expired' | 'other base URL' | 'refused' | 'unsendable' = 'no token'): AuthError {
    const login = `Run ${this.loginLine()}`;
    const cause = {
      'no token': 'no token is cached',
      expired: `its token expired at ${this.profileData.tokenExpiresAt ?? 'an unknown time'}`,
      'other base URL': `its token was issued for ${this.profileData.baseUrl ?? '?'}, not ${this.setting('baseUrl').value ?? '?'}`,
      refused: 'the platform refused its token',
      // Written by a b2bctl that stored the token route's answer as it came (a line break inside the token).
      unsendable:
        'its cached token holds a character no HTTP header can carry (a line break or another control character), so it cannot be sent',
    }[reason];
    // A token from the environment or a flag outranks the profile's: logging in would not change what is sent.
    const given = {
      env: ['the token in B2BCTL_TOKEN', 'unset B2BCTL_TOKEN'],
      flag: ['the token given with --token', 'leave --token out'],
    }[this.setting('token').source as string];
    if (reason === 'refused' && given !== undefined)
      return new AuthError(
        `Not logged in for profile "${this.profileName}": the platform refused ${given[0]}. Give a valid token, or ${given[1]} to use the profile's (b2bctl login).`,
      );
    const renew = reason === 'no token' ? '' : ' (or set B2BCTL_PASSWORD so b2bctl logs in again by itself)';
    if (reason === 'other base URL') {
      // Logging in to the profile's store again would not help: the run asks for another one.
      const other = this.setting('baseUrl').value ?? '?';
      return new AuthError(
        `Not logged in for profile "${this.profileName}": ${cause}. Log in to ${other} in a profile of its own (${this.commandLine(`login --profile NAME --base-url ${other}`)}, then --profile NAME), or set B2BCTL_PASSWORD so this run logs in there by itself.`,
      );
    }
    return new AuthError(`Not logged in for profile "${this.profileName}": ${cause}. ${login}${renew}.`);
  }

  /**
   * `b2bctl WORDS` for a message to suggest, led by the config folder when the environment chose it, so that pasted
   * it acts on the same profiles as this run (b2bctlLine).
   */
  commandLine(words: string): string {
    return b2bctlLine(configFolderFromEnvironment(this.env, this.store.directory), words);
  }

  /**
   * The login a message suggests, pasted anywhere: the config folder (commandLine), the profile, and the base URL when
   * the profile does not hold it (a cron job naming its store in B2BCTL_BASE_URL), or `login` asks for it.
   */
  loginLine(): string {
    const baseUrl = this.setting('baseUrl');
    const named = !this.profileData.baseUrl && baseUrl.value !== undefined && baseUrl.source !== 'profile';
    return this.commandLine(
      `login --profile ${this.profileName}${named ? ` --base-url ${shellWord(String(baseUrl.value))}` : ''}`,
    );
  }

  /** ` --profile NAME` for a command a message suggests, so that it acts on this profile; empty for the default. */
  profileFlag(): string {
    return this.profileName === 'default' ? '' : ` --profile ${this.profileName}`;
  }
}

/** The most characters a profile's name may have (docs/settings.md). */
const longestProfileName = 64;

/** Names an object's own workings, which a profile kept as a key of config.json's object must not be. */
const reservedProfileNames = new Set(['__proto__', 'constructor', 'prototype']);

/** Picks the profile: --profile, else B2BCTL_PROFILE, else "default"; an unknown named profile is an error. */
export function openSession(options: {
  store: ProfileStore;
  profileFlag: string | undefined;
  flags: Readonly<Record<string, string | undefined>>;
  env: Readonly<Record<string, string | undefined>>;
  allowNewProfile?: boolean;
}): Session {
  const named = options.profileFlag || options.env.B2BCTL_PROFILE;
  const profileName = named || 'default';
  if (!/^[\w.-]+$/.test(profileName)) {
    throw new UsageError(
      `Profile name "${profileName}" may hold only the letters a-z and A-Z, the digits 0-9, ".", "_" and "-".`,
    );
  }
  // Its jobs name files after it (`locks/NAME.stock-push.lock`, `cursors/NAME.orders-poll.json` and their temporary
  // names beside them): a 230-character name was saved by login, then every push and poll failed on ENAMETOOLONG (a
  // user test). Bounded where it is first given, well within the 255 bytes of a file's name.
  if (profileName.length > longestProfileName) {
    throw new UsageError(
      `Profile name "${profileName.slice(0, 24)}…" is too long (${profileName.length} characters): at most ${longestProfileName}, as the files of its jobs are named after it.`,
    );
  }
  // Profiles are keys of config.json's object: `__proto__` set the object's prototype instead of a key, so `login
  // --profile __proto__` said it had logged in and kept nothing. The other names of an object's workings go with it.
  if (reservedProfileNames.has(profileName)) {
    throw new UsageError(
      `Profile name "${profileName}" is reserved (it names a JavaScript object's workings, not a profile): choose another.`,
    );
  }
  const profile = options.store.read(profileName);
  if (!profile && named && profileName !== 'default' && !options.allowNewProfile) {
    const known = options.store.profileNames();
    throw new UsageError(
      `Unknown profile "${profileName}" (${known.length ? `known: ${known.join(', ')}` : 'no profiles yet'}). Run ${b2bctlLine(configFolderFromEnvironment(options.env, options.store.directory), `login --profile ${profileName}`)} to create it.`,
    );
  }
  return new Session({ store: options.store, profileName, profile, flags: options.flags, env: options.env });
}
