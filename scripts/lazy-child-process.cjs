// Stands in for node:child_process in the bundle. commander requires it at load time for executable
// subcommands, which b2bctl never uses; loading it costs ~6 ms of every start-up. Nothing is loaded
// until a property is first read.
let real;
module.exports = new Proxy(
  {},
  {
    get(_target, property) {
      real ??= require('node:child_process');
      return real[property];
    },
  },
);
