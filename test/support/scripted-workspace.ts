/**
 * A fresh folder and config folder in which a test runs `b2bctl` in process against its scripted platform
 * (test/support/scripted-platform.ts), with a pre-issued token so that no log-in is asked for.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach } from 'vitest';
import { freshConfigDir, freshWorkDir } from './cli.js';
import { runCommandLine } from './command-line.js';
import type { ScriptedPlatform } from './scripted-platform.js';

/** The token b2bctl is given (B2BCTL_TOKEN) against a scripted platform, which asks for none. */
export const preIssuedToken = 'a-pre-issued-token-0123456789';

/** The environment pointing b2bctl at PLATFORM with the pre-issued token, and EXTRA settings. */
export function scriptedPlatformEnv(platform: ScriptedPlatform, extra: Record<string, string> = {}) {
  return { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: preIssuedToken, ...extra };
}

/**
 * FILES written in a fresh folder, and a runner of b2bctl there against PLATFORM with one fresh config folder: a
 * second run (a resume) finds what the first left there.
 */
export function scriptedWorkspace(platform: ScriptedPlatform, files: Record<string, string> = {}) {
  const dir = freshWorkDir();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const configDir = freshConfigDir();
  /** `b2bctl ARGS` there, given STDIN and EXTRA settings in its environment. */
  const run = (args: readonly string[], { stdin, env }: { stdin?: string; env?: Record<string, string> } = {}) =>
    runCommandLine(args, { configDir, env: scriptedPlatformEnv(platform, env), cwd: dir, stdin });
  return { dir, run };
}

/** A fresh `scriptedWorkspace` (with no files) for each test of the file: its folder and its runner. */
export function useScriptedWorkspacePerTest(platform: ScriptedPlatform) {
  let current: ReturnType<typeof scriptedWorkspace> | undefined;
  beforeEach(() => {
    current = scriptedWorkspace(platform);
  });
  const started = () => {
    if (!current) throw new Error('the workspace is made before each test');
    return current;
  };
  return {
    get folder() {
      return started().dir;
    },
    run: (...args: Parameters<ReturnType<typeof scriptedWorkspace>['run']>) => started().run(...args),
  };
}

/** `b2bctl ARGS` in a fresh folder holding FILES, against PLATFORM: its result and the folder. */
export async function runInScriptedWorkspace(
  platform: ScriptedPlatform,
  args: readonly string[],
  files: Record<string, string> = {},
) {
  const { dir, run } = scriptedWorkspace(platform, files);
  return { result: await run(args), folder: dir };
}

/** `b2bctl ARGS` in FOLDER, where an earlier run left its files (a resume), against PLATFORM with a fresh config. */
export function runInFolder(platform: ScriptedPlatform, folder: string, args: readonly string[]) {
  return runCommandLine(args, { configDir: freshConfigDir(), env: scriptedPlatformEnv(platform), cwd: folder });
}
