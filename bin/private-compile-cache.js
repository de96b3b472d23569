// Node's compile cache holds compiled code that Node runs on the next start, checked only against a checksum of the
// source, not against who wrote it. Node's default folder, $TMPDIR/node-compile-cache, sits in the shared /tmp and
// belongs to whoever makes it first: another local user could plant code there that b2bctl would run with the
// user's password and tokens. So the cache lives in a folder of the user's own, and is left off when that folder is
// not safely theirs: a cache only buys speed, never worth running someone else's code.
// Plain JavaScript, loaded by the launcher on every start: the few file checks it makes cost well under a millisecond.
import module from 'node:module';

const require = module.createRequire(import.meta.url);

/** Turns on Node's compile cache in a folder only this user can write, or leaves it off. */
export function enablePrivateCompileCache() {
  // A folder the user chose (NODE_COMPILE_CACHE) is theirs to answer for, and Node has already taken it at start
  // (it would answer ALREADY_ENABLED to any folder given here); so has NODE_DISABLE_COMPILE_CACHE.
  if (process.env.NODE_COMPILE_CACHE) return;
  // Windows: no owner ids to check, and Node's default folder is in the user's own %TEMP%, not a shared one.
  if (process.getuid === undefined) {
    module.enableCompileCache();
    return;
  }
  const folder = privateCompileCacheFolder(process.getuid());
  if (folder !== undefined) module.enableCompileCache(folder);
}

/**
 * `$XDG_CACHE_HOME/b2bctl/compile-cache`, else `~/.cache/b2bctl/compile-cache`, made 0700 where missing; undefined
 * when a folder of it could be changed by another user, or cannot be made, or the home it would be in is not there.
 */
export function privateCompileCacheFolder(uid) {
  const cacheHome = userCacheHome();
  if (cacheHome === undefined) return undefined;
  const { lstatSync, mkdirSync, statSync } = require('node:fs');
  try {
    mkdirSync(cacheHome, { recursive: true, mode: 0o700 });
    // The cache home may be a link (a user's ~/.cache on another disk): their choice, followed. It must not let
    // another user swap b2bctl's folder in it, unless it is sticky (/tmp), where no one renames another's folder.
    const home = statSync(cacheHome);
    if (!home.isDirectory() || (home.uid !== uid && home.uid !== 0)) return undefined;
    if ((home.mode & 0o022) !== 0 && (home.mode & 0o1000) === 0) return undefined;
    const ours = `${cacheHome}/b2bctl`;
    for (const folder of [ours, `${ours}/compile-cache`]) {
      makeFolder(mkdirSync, folder);
      // Not followed: b2bctl's own folders are made here, so a link in their place was put there by someone else.
      const stats = lstatSync(folder);
      if (!stats.isDirectory() || stats.uid !== uid || (stats.mode & 0o022) !== 0) return undefined;
    }
    return `${ours}/compile-cache`;
  } catch {
    return undefined;
  }
}

/**
 * The XDG base directory for caches: an absolute $XDG_CACHE_HOME (a relative one is to be ignored), else ~/.cache.
 * Undefined when the home is not there: a cache is never worth making a home (`HOME=/nonexistent`, the "no home" of
 * system users, was made by root's every command, with .cache in it, a user test).
 */
function userCacheHome() {
  const xdg = process.env.XDG_CACHE_HOME;
  if (xdg?.startsWith('/')) return xdg.replace(/\/+$/, '') || '/';
  const home = process.env.HOME || require('node:os').homedir();
  if (!home || !require('node:fs').existsSync(home)) return undefined;
  return `${home.replace(/\/+$/, '')}/.cache`;
}

/** mkdir 0700, where the folder is not there yet; one that is there is judged by the caller. */
function makeFolder(mkdirSync, folder) {
  try {
    mkdirSync(folder, { mode: 0o700 });
  } catch (error) {
    if (error.code !== 'EEXIST') throw error;
  }
}
