import { chmodSync, statSync } from 'node:fs';
import { B2bctlError, ExitCode } from '../base/errors.js';
import { currentUserName, otherWriters, shownMode, specialFileKind, userName } from '../lib/file-owners.js';
import { lstatOrUndefined } from '../lib/private-file.js';
import { shellWord } from '../lib/shell-word.js';

/**
 * The config folder decides where b2bctl sends the password (an automatic re-login reads its base URL) and holds the
 * tokens: like ssh with ~/.ssh, b2bctl refuses one that another user owns or that its group or others may write, as
 * they could swap config.json. Root owning it is fine (root can read everything anyway); exit 77.
 */
export function checkConfigFolderSafety(directory: string, file: string): void {
  // conf writes the file by a rename beside where a link points: a link planted at config.json would have the
  // tokens written wherever it leads. Checked on every system, before owners and modes.
  const found = lstatOrUndefined(file);
  if (found?.isSymbolicLink())
    throw new B2bctlError(
      `The config file ${file} is a symbolic link, which b2bctl never writes through: the tokens would go wherever it points. Remove the link (rm ${shellWord(file)}) and log in again, or point B2BCTL_CONFIG_DIR at a folder of your own.`,
      ExitCode.authFailed,
    );
  // conf reads it with a blocking open: a FIFO there would hold every command for ever, deaf to SIGTERM.
  if (found !== undefined && !found.isFile() && !found.isDirectory())
    throw new B2bctlError(
      `The config file ${file} is ${specialFileKind(found)}, not a file: b2bctl would wait on it for ever. Remove it (rm ${shellWord(file)}) and log in again, or point B2BCTL_CONFIG_DIR at a folder of your own.`,
      ExitCode.authFailed,
    );
  const uid = process.getuid?.();
  // Windows: no owner ids and no mode bits to judge.
  if (uid === undefined) return;
  for (const [path, what] of [
    [directory, 'config folder'],
    [file, 'config file'],
  ] as const) {
    let stats: ReturnType<typeof statSync>;
    try {
      stats = statSync(path);
    } catch {
      continue; // Not there yet: b2bctl creates it, its own and private.
    }
    if (stats.uid !== uid && stats.uid !== 0) {
      const me = currentUserName(uid);
      throw new B2bctlError(
        `The ${what} ${path} belongs to ${userName(stats.uid)}, not to ${me}: that user could change where b2bctl sends your password. Make it yours (sudo chown ${me} ${shellWord(path)} && chmod ${what === 'config folder' ? '700' : '600'} ${shellWord(path)}), or point B2BCTL_CONFIG_DIR at a folder of your own.`,
        ExitCode.authFailed,
      );
    }
    const who = otherWriters(stats.mode);
    if (who !== undefined) {
      throw new B2bctlError(
        `The ${what} ${path} is writable by ${who} (mode ${shownMode(stats.mode)}): they could change where b2bctl sends your password. Run chmod go-w ${shellWord(path)}${what === 'config folder' ? ` (or chmod 700 ${shellWord(path)}), and check its config.json is yours` : ', and check it is yours'}.`,
        ExitCode.authFailed,
      );
    }
    // Readable by others, the file shows them the tokens: b2bctl writes it 0600, and puts back a mode widened since.
    if (what === 'config file' && stats.uid === uid && (stats.mode & 0o044) !== 0) chmodSync(path, 0o600);
  }
}
