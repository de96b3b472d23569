import { lstatSync, statSync, type Stats } from 'node:fs';

/**
 * What is at `path`, a link followed, or undefined when nothing can be seen there (missing, or a folder on the way
 * that cannot be searched): callers decide what a missing file means, and an unreadable one fails later where it
 * is opened, with the message of that use.
 */
export function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** What is at `path` itself (a link not followed), or undefined when nothing is. */
export function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
