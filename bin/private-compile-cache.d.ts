/** Turns on Node's compile cache in a folder only this user can write, or leaves it off. */
export function enablePrivateCompileCache(): void;
/** The compile cache's folder for this user (made where missing), or undefined when it is not to be used. */
export function privateCompileCacheFolder(uid: number): string | undefined;
