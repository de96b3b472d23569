/**
 * What a password login leaves and says, shared by the in-process login tests and the runs of the binary:
 * the stored profile (token and its times, never the password, 0600 in a 0700 folder) and the one line printed.
 */
import { readFileSync, statSync } from 'node:fs';
import { expect } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { configFile, readConfig } from './cli.js';
import { sandboxPassword, sandboxUser } from './sandbox.js';

const twelveHoursMs = 12 * 60 * 60 * 1000;

/** The stored profile after a password login: the token and its times, never the password. */
export function expectPasswordLoginStored(sandbox: RunningSandbox, configDir: string): Record<string, string> {
  const text = readFileSync(configFile(configDir), 'utf8');
  expect(text).not.toContain(sandboxPassword);
  const profile = readConfig(configDir).profiles.default ?? {};
  expect(Object.keys(profile).toSorted()).toEqual([
    'baseUrl',
    'token',
    'tokenExpiresAt',
    'tokenObtainedAt',
    'username',
  ]);
  expect(profile.baseUrl).toBe(sandbox.url);
  expect(profile.username).toBe(sandboxUser);
  expect(sandbox.state.checkToken(profile.token ?? '', Date.now())).toBe('valid');
  expect(Date.parse(profile.tokenExpiresAt ?? '') - Date.parse(profile.tokenObtainedAt ?? '')).toBe(twelveHoursMs);
  // 0600 file in a 0700 folder: the folder did not exist before, so b2bctl created it.
  expect(statSync(configFile(configDir)).mode & 0o777).toBe(0o600);
  expect(statSync(configDir).mode & 0o777).toBe(0o700);
  return profile;
}

/** The line login prints on success. */
export function loggedInLine(sandbox: RunningSandbox, profile: Record<string, string>, name = 'default'): string {
  return `Logged in to ${sandbox.url} as ${sandboxUser} (profile "${name}"); the token is valid until ${profile.tokenExpiresAt}.\n`;
}
