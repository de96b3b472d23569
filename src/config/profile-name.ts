import { UsageError } from '../base/errors.js';

/** Names an object's own workings, which a profile kept as a key of config.json's object must not be. */
const reservedProfileNames = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The profile a run names: --profile, else B2BCTL_PROFILE, else "default"; a name that is no profile's (a `/` in it,
 * an object's workings) is a usage error. Whether the profile exists is openSession's to say.
 */
export function chosenProfileName(
  profileFlag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): string {
  const profileName = profileFlag || env.B2BCTL_PROFILE || 'default';
  if (!/^[\w.-]+$/.test(profileName)) {
    throw new UsageError(`Profile name "${profileName}" may hold only letters, digits, ".", "_" and "-".`);
  }
  // Profiles are keys of config.json's object: `__proto__` set the object's prototype instead of a key, so `login
  // --profile __proto__` said it had logged in and kept nothing. The other names of an object's workings go with it.
  if (reservedProfileNames.has(profileName)) {
    throw new UsageError(
      `Profile name "${profileName}" is reserved (it names a JavaScript object's workings, not a profile): choose another.`,
    );
  }
  return profileName;
}
