// Preloaded with `node --import` into a built b2bctl: the bundle (dist/cli.js) loads B2BCTL_TEST_BUNDLE_DELAY_MS late,
// and the file named by B2BCTL_TEST_BUNDLE_LOADING is made as its loading starts, so a test can signal the launcher
// in the moment a busy machine spends loading the bundle, before b2bctl's own signal handlers are installed.
// module.registerHooks (every Node b2bctl supports) runs the hook in this thread: the wait holds the launcher.
import { writeFileSync } from 'node:fs';
import module from 'node:module';

const marker = process.env.B2BCTL_TEST_BUNDLE_LOADING;
const delayMs = Number(process.env.B2BCTL_TEST_BUNDLE_DELAY_MS ?? '1000');
module.registerHooks({
  load(url, context, nextLoad) {
    if (url.endsWith('/dist/cli.js')) {
      writeFileSync(marker, '');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, delayMs);
    }
    return nextLoad(url, context);
  },
});
