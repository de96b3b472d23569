import { chmodSync, readlinkSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, parse, resolve, sep } from 'node:path';
import { B2bctlError, ExitCode } from '../base/errors.js';
import { currentUserName, loginName, otherWriters, shownMode, specialFileKind, userName } from '../lib/file-owners.js';
import { lstatOrUndefined } from '../lib/file-status.js';
import { shellWord } from '../lib/shell-word.js';
import { printable } from '../lib/printable.js';

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
      `The config file ${printable(file)} is a symbolic link, which b2bctl never writes through: the tokens would go wherever it points. Remove the link (rm ${shellWord(file)}) and log in again, or point B2BCTL_CONFIG_DIR at a folder of your own.`,
      ExitCode.authFailed,
    );
  // conf reads it with a blocking open: a FIFO there would hold every command for ever, deaf to SIGTERM.
  // A folder there (what `docker run -v ./config.json:…` makes of a host file not yet made) cannot be read either.
  if (found !== undefined && !found.isFile())
    throw new B2bctlError(
      `The config file ${printable(file)} is ${specialFileKind(found)}, not a file: ${found.isDirectory() ? 'b2bctl cannot read or write it' : 'b2bctl would wait on it for ever'}. Remove it (${found.isDirectory() ? 'rmdir' : 'rm'} ${shellWord(file)}) and log in again, or point B2BCTL_CONFIG_DIR at a folder of your own.`,
      ExitCode.authFailed,
    );
  const uid = process.getuid?.();
  // Windows: no owner ids and no mode bits to judge.
  if (uid === undefined) return;
  refuseForeignFolderLink(
    directory,
    'config folder',
    'another config folder (another profile, base URL and token)',
    'Point B2BCTL_CONFIG_DIR at the folder itself, one of your own',
  );
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
    refuseWhenOthersCanChange(path, stats, uid, {
      what,
      owned: (me, owner) =>
        `that user could change where b2bctl sends your password. ${foreignConfigFix(path, what, me, owner)}`,
      writable: `they could change where b2bctl sends your password. Run chmod go-w ${shellWord(path)}${what === 'config folder' ? ` (or chmod 700 ${shellWord(path)}), and check its config.json is yours` : ', and check it is yours'}.`,
    });
    // Readable by others, the file shows them the tokens: b2bctl writes it 0600, and puts back a mode widened since.
    if (what === 'config file' && stats.uid === uid && (stats.mode & 0o044) !== 0) chmodSync(path, 0o600);
  }
}

/**
 * What to do about a config folder (or config.json) another user owns. Most often it is theirs on purpose: a service
 * user's, which root meets checking its cron job. Handing it to root (`chown root`) left that user's job unable to read
 * its own profiles (a user test), so the fix is to run as that user, or to use a folder of one's own. Only a folder in
 * one's own home (one copied in, or made by another account) is offered the chown.
 */
function foreignConfigFix(path: string, what: string, me: string, owner: number): string {
  const ownFolder = `point B2BCTL_CONFIG_DIR at a folder of your own`;
  const home = homedirOrUndefined();
  if (home !== undefined && (resolve(path) + sep).startsWith(resolve(home) + sep))
    return `Make it yours (sudo chown ${me} ${shellWord(path)} && chmod ${what === 'config folder' ? '700' : '600'} ${shellWord(path)}), or ${ownFolder}.`;
  const name = loginName(owner);
  const asOwner =
    name === undefined ? `as its owner (uid ${owner})` : `as that user (sudo -u ${shellWord(name)} b2bctl …)`;
  return `If it is that user's, run b2bctl ${asOwner}, leaving its owner as it is; otherwise ${ownFolder}.`;
}

function homedirOrUndefined(): string | undefined {
  try {
    return homedir();
  } catch {
    return undefined;
  }
}

/**
 * A folder named through a symbolic link another user owns (B2BCTL_CONFIG_DIR=/srv/shared/cfglink, an --inbox in a
 * shared folder): whatever the folder it leads to, its owner can re-point it at will, at another folder of this
 * user's (a production profile and its token, another job's inbox or orders) or one of their own. Refused (exit 77);
 * a link of this user's (or root's) is a choice of theirs, such as a dotfiles manager's, and is followed.
 */
function refuseForeignFolderLink(directory: string, what: string, stake: string, fix: string): void {
  const uid = process.getuid?.();
  if (uid === undefined) return;
  const foreign = foreignLinkOnTheWay(directory, uid);
  if (foreign !== undefined)
    throw wayRefusal(foreign, uid, `The ${what}`, `point it at ${stake} whenever they like`, fix);
}

/**
 * How another user could change where a path leads: a symbolic link of theirs on the way (`how` it is met), or a
 * folder on the way that others may write without the sticky bit.
 */
type ChangeableWay =
  | { named: string; link: string; owner: number; how: string; folder?: never }
  | { named: string; folder: string; writableBy: string; mode: string; link?: never };

/**
 * The refusal (exit 77) of a path another user could lead elsewhere (ChangeableWay): `what` names it as a sentence
 * starts, `consequence` what that user can do with it (`point it at …`), `fix` how to give one of one's own.
 */
function wayRefusal(way: ChangeableWay, uid: number, what: string, consequence: string, fix: string): B2bctlError {
  if (way.link !== undefined)
    return new B2bctlError(
      `${what} ${printable(way.named)} ${way.how} ${userName(way.owner)}, not to ${currentUserName(uid)}: that user can ${consequence}. ${fix}, or remove the link (rm ${shellWord(way.link)}).`,
      ExitCode.authFailed,
    );
  return new B2bctlError(
    `${what} ${printable(way.named)} lies in ${printable(way.folder)}, which ${way.writableBy} may write (mode ${way.mode}) without the sticky bit: any of them can put a link of theirs in place of what it holds, and ${consequence}. ${fix}, or run chmod go-w ${shellWord(way.folder)}.`,
    ExitCode.authFailed,
  );
}

/**
 * Links followed along a path before giving up (the kernel's own limit is 40): a loop fails later, where the file is
 * opened, with the system's ELOOP.
 */
const mostLinksFollowed = 40;

/**
 * The first symbolic link another user (not root, not `uid`) owns on the way to the path, in any of its components,
 * not only its last: the path itself, a folder in it (`shared/lnkdir/machine-id`, `lnkdir` theirs: re-pointed at a
 * folder of theirs holding a file of that name, a user test), or a link a link of this user's points at (ours ->
 * theirs -> a file). Root's links (/var -> /private/var on macOS) and this user's are followed. Undefined when there
 * is none, or when a component is not there (opening it says why). A trailing slash is dropped: with it, lstat would
 * look through the link.
 */
function foreignLinkOnTheWay(path: string, uid: number): ChangeableWay | undefined {
  const named = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const whole = resolve(named);
  const ahead = whole.split(sep).filter((part) => part !== '');
  let current = parse(whole).root;
  for (let followed = 0; ahead.length > 0;) {
    const next = join(current, ahead.shift() as string);
    const found = lstatOrUndefined(next);
    if (found === undefined) return undefined;
    if (!found.isSymbolicLink()) {
      // A folder others may write without the sticky bit: any of them can rename what is in it and put a link of
      // theirs in its place. With the sticky bit (/tmp) only the owner of an entry can; the last component's own
      // mode is its check's (a config folder's, an inbox's).
      const writableBy = found.isDirectory() && ahead.length > 0 ? otherWriters(found.mode) : undefined;
      if (writableBy !== undefined && (found.mode & 0o1000) === 0)
        return { named, folder: next, writableBy, mode: shownMode(found.mode) };
      current = next;
      continue;
    }
    if (found.uid !== uid && found.uid !== 0) {
      const how =
        next === whole
          ? 'is a symbolic link that belongs to'
          : `leads through ${printable(next)}, a symbolic link that belongs to`;
      return { named, link: next, owner: found.uid, how };
    }
    if (++followed > mostLinksFollowed) return undefined;
    let target: string;
    try {
      target = readlinkSync(next);
    } catch {
      return undefined; // Gone or unreadable meanwhile: opening it says why.
    }
    // The link's target takes its place: what is left of the path is looked for under it.
    const resolved = resolve(current, target);
    ahead.unshift(...resolved.split(sep).filter((part) => part !== ''));
    current = parse(resolved).root;
  }
  return undefined;
}

/**
 * A secret file (a client secret file, a TLS private key) reached through a symbolic link another user owns, the
 * link itself or one it leads through: its owner can point it at any file they can read (/etc/machine-id, readable
 * by all and private-looking), then know the secret, ask tokens and post forged events. Refused (exit 77) as a
 * config folder through their link is, naming the link and its owner; a link of this user's or root's is followed.
 * `what` names the file as a sentence starts ("The client secret file"); `fix` how to give one of one's own.
 */
export function checkSecretFileLink(file: string, what: string, fix: string): void {
  const uid = process.getuid?.();
  if (uid === undefined) return;
  const foreign = foreignLinkOnTheWay(file, uid);
  if (foreign !== undefined)
    throw wayRefusal(foreign, uid, what, 'point it at any file they can read, and so know the secret', fix);
}

/**
 * The folder a bulk run writes its report, run record or errors file in, reached through a symbolic link another
 * user owns (`--report /tmp/shared/out/nightly` with `out` theirs): the files are made 0600 and never over another
 * file, but that user chooses, and may re-point between runs, which folder of this user's gets the customers' rows.
 * Refused (exit 77) before anything is sent, as an `--out-dir` through their link is; `flag` names the option
 * whose path it is, for the way out. The folder's own mode is no matter: the files are made where no one else can
 * replace them (private-file.ts).
 */
export function checkRunFileFolderLink(file: string, what: 'report' | 'errors file', flag: string): void {
  const uid = process.getuid?.();
  if (uid === undefined) return;
  const foreign = foreignLinkOnTheWay(dirname(resolve(file)), uid);
  if (foreign === undefined) return;
  const fix =
    flag === '--resume'
      ? `Nothing was sent. Copy the report and its run record into a folder of your own and --resume the copy`
      : `Nothing was sent. Give ${flag} (or the outputDir setting) a folder of your own`;
  throw wayRefusal(
    foreign,
    uid,
    `The ${what}'s folder`,
    `point it at another folder of yours, or one of theirs, whenever they like, and so choose where the run's rows are written`,
    fix,
  );
}

/** The webhook inbox folder through another user's link: refused before the receiver opens it (exit 77). */
export function checkInboxFolderLink(folder: string): void {
  refuseForeignFolderLink(
    folder,
    'inbox folder',
    'another inbox (its events, its token key) or a folder of theirs',
    'Give --inbox the folder itself, one of your own',
  );
}

/**
 * `webhook inbox --import` through another user's link (the old NDJSON inbox folder, or its events.ndjson): its owner
 * chooses the events taken into the store, which the receiver then hands to the ERP. Refused (exit 77) before
 * anything is read, as the inbox folder's link is.
 */
export function checkImportedInboxLink(path: string): void {
  refuseForeignFolderLink(
    path,
    'NDJSON inbox',
    'a file of theirs, whose events would be taken into the store and handed to the ERP,',
    'Give --import the folder or file itself, one of your own',
  );
}

/**
 * The orders cursor decides which orders a poll emits and which it skips (one another user made in a shared folder,
 * dated 2030, had every order until then skipped): the config file's rule, on the cursor file; exit 77. Unlike the
 * config folder, the cursor's folder is not judged: b2bctl rewrites the cursor as its own by a rename, and a file
 * another user put in its place is theirs, which this refuses.
 */
export function checkCursorFileSafety(path: string): void {
  const uid = process.getuid?.();
  if (uid === undefined) return;
  // The file itself, not where a link leads: a link (one another user planted, pointing at a cursor of this user's)
  // is refused by readCursor, which never follows one, whoever owns it.
  const stats = lstatOrUndefined(path);
  // None yet (a first run), unreadable, or no file at all (a FIFO, a device such as /dev/zero, whose mode says nothing
  // of who decides the cursor): readCursor says which, before anything is opened.
  if (stats === undefined || !stats.isFile()) return;
  const stake = 'whoever can change it decides which orders the poll emits and which it skips; nothing was emitted';
  refuseWhenOthersCanChange(path, stats, uid, {
    what: 'orders cursor',
    owned: (me) =>
      `${stake}. Use a --cursor file in a folder of your own (with --since for its first run), or, if you trust what it says, make it yours (sudo chown ${me} ${shellWord(path)} && chmod 600 ${shellWord(path)}).`,
    writable: `${stake}. Run chmod go-w ${shellWord(path)}, and check what it says.`,
  });
}

/**
 * `webhook listen --fetch-orders` (under `--inbox`) and `orders poll --out-dir` write each order where the ERP reads
 * it: in a folder another user made first in a shared folder, reached through their link, or one others may write,
 * they could rename an order away and put a forged one in its place. Refused as a config folder of theirs is,
 * before anything is fetched; exit 77. `flag` is the option that names the folder, for the fix.
 */
export function checkOrdersFolderSafety(folder: string, flag: '--inbox' | '--out-dir'): void {
  refuseForeignFolderLink(
    folder,
    'orders folder',
    "another folder, another job's orders folder of yours or one of theirs",
    `Give ${flag} a folder of your own`,
  );
  const uid = process.getuid?.();
  if (uid === undefined) return;
  const stats = statSync(folder);
  const stake = 'they could swap the orders the ERP reads from it for forged ones';
  refuseWhenOthersCanChange(folder, stats, uid, {
    what: 'orders folder',
    owned: (me) =>
      `${stake}. Make it yours (sudo chown ${me} ${shellWord(folder)} && chmod 700 ${shellWord(folder)}), or give ${flag} a folder of your own.`,
    writable: `${stake}. ${writableOrdersFolderFix(folder, flag, stats.mode)}`,
  });
}

/**
 * `docs man FOLDER`'s `man1`, where the pages are written: one another user made first in a shared folder (0777,
 * theirs) or others may write lets them put pages of their own in place of b2bctl's, and one reached through their
 * symbolic link has the pages written wherever they point it. Low stakes (the pages are public text), refused all the
 * same as the orders folder's and the config folder's are, before anything is written; exit 77. None yet is fine:
 * b2bctl makes it.
 */
export function checkManFolderSafety(section: string): void {
  const fix = 'Give docs man a folder of your own, such as ~/.local/share/man';
  refuseForeignFolderLink(section, 'man page folder', 'a folder of theirs, or another folder of yours,', fix);
  const uid = process.getuid?.();
  if (uid === undefined) return;
  let stats: ReturnType<typeof statSync>;
  try {
    // Through a link of this user's or root's, which refuseForeignFolderLink let by: the folder it leads to.
    stats = statSync(section);
  } catch {
    return; // Not there yet: b2bctl makes it, its own.
  }
  if (!stats.isDirectory()) return; // Making it says why it cannot be a folder.
  const stake = 'they could put pages of their own in place of the ones b2bctl writes';
  refuseWhenOthersCanChange(section, stats, uid, {
    what: 'man page folder',
    owned: (me) =>
      `${stake}. ${fix}, or make it yours (sudo chown ${me} ${shellWord(section)} && chmod 755 ${shellWord(section)}).`,
    writable: `${stake}. Run chmod 755 ${shellWord(section)}.`,
  });
}

/**
 * A folder shared on purpose (the sticky bit: /tmp, a team's drop folder) is no mistake to chmod away: `chmod 700
 * /tmp` would break every other user's programs. The fix is a folder of one's own in it. The receiver's orders folder
 * is its own inbox's, whose mode is the fix.
 */
function writableOrdersFolderFix(folder: string, flag: '--inbox' | '--out-dir', mode: number): string {
  if (flag === '--inbox' || (mode & 0o1000) === 0) return `Run chmod 700 ${shellWord(folder)}.`;
  return `It is shared on purpose, as /tmp is (the sticky bit): leave its mode, and give ${flag} a folder of your own (mkdir -m 700 ${shellWord(join(folder, 'erp-orders'))}).`;
}

/**
 * The warning for a webhook inbox folder that another user owns or that others may write (a shared /srv or /tmp
 * folder): they may plant files beside the inbox, or an `orders` folder of their own; undefined when none may.
 */
export function inboxFolderWarning(folder: string): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(folder);
  } catch {
    return undefined; // Not there: the store says why it cannot be opened.
  }
  const others = othersWhoCanChange(stats, uid);
  if (others === undefined) return undefined;
  const who =
    others.owner !== undefined
      ? `belongs to ${others.owner}`
      : `is writable by ${others.writableBy} (mode ${others.mode})`;
  return `warning: the inbox folder ${printable(folder)} ${who}: other users may put files in it, beside the events it keeps. Give --inbox a folder of your own (chmod 700 ${shellWord(folder)}).`;
}

/**
 * The refusal of a file or folder another user owns or its group or others may write: `what` it is, and what follows
 * the colon in each case, what is at stake and the fix (`owned` given this user's name, for a chown).
 */
interface ChangeableByOthers {
  what: string;
  owned: (me: string, owner: number) => string;
  writable: string;
}

/**
 * Refuses (exit 77) a file or folder that someone besides this user could change (othersWhoCanChange): the one
 * wording of the config folder's, the cursor's, the orders folder's and the locks folder's refusals, which each wrote.
 */
function refuseWhenOthersCanChange(
  path: string,
  stats: { uid: number; mode: number },
  uid: number,
  refusal: ChangeableByOthers,
): void {
  const others = othersWhoCanChange(stats, uid);
  if (others?.owner !== undefined)
    throw new B2bctlError(
      `The ${refusal.what} ${printable(path)} belongs to ${others.owner}, not to ${others.me}: ${refusal.owned(others.me, stats.uid)}`,
      ExitCode.authFailed,
    );
  if (others?.writableBy !== undefined)
    throw new B2bctlError(
      `The ${refusal.what} ${printable(path)} is writable by ${others.writableBy} (mode ${others.mode}): ${refusal.writable}`,
      ExitCode.authFailed,
    );
}

/**
 * Who besides this user could change a file or folder: another owner (root aside: root can change anything
 * anyway), or its group or others by its mode. Undefined when no one.
 */
function othersWhoCanChange(
  stats: { uid: number; mode: number },
  uid: number,
): { owner: string; me: string; writableBy?: never } | { writableBy: string; mode: string; owner?: never } | undefined {
  if (stats.uid !== uid && stats.uid !== 0) return { owner: userName(stats.uid), me: currentUserName(uid) };
  const writableBy = otherWriters(stats.mode);
  return writableBy === undefined ? undefined : { writableBy, mode: shownMode(stats.mode) };
}

/**
 * The config folder's `locks` folder, where a run's lock keeps the next run of the same job from overlapping it: a
 * symbolic link in its place (to a folder every user may write) had the locks written and trusted there, where any
 * local user could delete a push's lock so a second one overlapped it, or make one first so pushes stopped (a user test).
 * Refused as a link at the cursor is, and so is a folder another user owns or its group or others may write; exit 77.
 * None yet is fine: b2bctl makes it, 0700.
 */
export function checkLocksFolderSafety(folder: string): void {
  const found = lstatOrUndefined(folder);
  if (found === undefined) return;
  const stake =
    "whoever can change what is in it can remove a run's lock so that two runs of one job overlap, or make one so that none runs";
  if (found.isSymbolicLink())
    throw new B2bctlError(
      `The locks folder ${printable(folder)} is a symbolic link, which b2bctl never keeps its locks through: ${stake}. Remove the link (rm ${shellWord(folder)}); b2bctl makes the folder itself, private.`,
      ExitCode.authFailed,
    );
  const uid = process.getuid?.();
  if (uid === undefined || !found.isDirectory()) return;
  refuseWhenOthersCanChange(folder, found, uid, {
    what: 'locks folder',
    owned: (me) =>
      `${stake}. Remove it (b2bctl makes it again, its own) or make it yours (sudo chown ${me} ${shellWord(folder)} && chmod 700 ${shellWord(folder)}).`,
    writable: `${stake}. Run chmod 700 ${shellWord(folder)}.`,
  });
}
