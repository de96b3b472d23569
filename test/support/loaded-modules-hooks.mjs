// The hooks record-loaded-modules.mjs registers where Node lacks module.registerHooks (22.13 and 22.14); they run on
// Node's hooks thread, and only note what was resolved.
import { appendFileSync } from 'node:fs';

let file;

export function initialize(data) {
  file = data;
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(file, `${resolved.url}\n`);
  return resolved;
}
