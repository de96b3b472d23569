// Preloaded with `node --import` into a built b2bctl: appends the URL of every module it resolves to the file named by
// B2BCTL_TEST_LOADED_MODULES, through Node's public module hooks (module.register), so a test can see what a
// command line loads.
import { register } from 'node:module';

register('./loaded-modules-hooks.mjs', import.meta.url, { data: process.env.B2BCTL_TEST_LOADED_MODULES });
