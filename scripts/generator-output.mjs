// Where a generator writes: the path given after the count, or stdout. A path keeps npm's banner
// (`> b2bctl@0.1.0 gen:stock`) out of the file, which `npm run gen:stock -- N > file` would capture.
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

/** The first argument that is neither an option nor an option's value, from `args` (after the count). */
export function outputPathFrom(args, optionsWithValue = []) {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    if (optionsWithValue.includes(arg)) index++;
    else if (!arg.startsWith('--')) return arg;
  }
  return undefined;
}

/** A sink with `write(chunk)` (awaits drain) and `end()` (awaits the file's close), on `path` or stdout. */
export function generatorOutput(path) {
  const stream = path === undefined || path === '-' ? process.stdout : createWriteStream(path);
  return {
    async write(chunk) {
      if (!stream.write(chunk)) await once(stream, 'drain');
    },
    async end() {
      if (stream === process.stdout) return;
      stream.end();
      await once(stream, 'close');
    },
  };
}
