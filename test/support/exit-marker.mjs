// Preloaded with `node --import` into a built b2bctl: the file named by B2BCTL_TEST_EXITING is made when the process
// emits 'exit' (this listener is the first one), so a test can signal it in the moment Node spends ending it, after
// the command's last line, when no JavaScript runs any more.
import { writeFileSync } from 'node:fs';

process.on('exit', () => writeFileSync(process.env.B2BCTL_TEST_EXITING, ''));
