// Preloaded with `node --import` into a built b2bctl: appends the URL of every module it resolves to the file named by
// B2BCTL_TEST_LOADED_MODULES, through Node's public module hooks, so a test can see what a command line loads.
// module.registerHooks (every Node b2bctl supports) runs them in this thread.
import { appendFileSync } from 'node:fs';
import module from 'node:module';

const file = process.env.B2BCTL_TEST_LOADED_MODULES;
module.registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    appendFileSync(file, `${resolved.url}\n`);
    return resolved;
  },
});
