import type { ShapingFlag } from '../../src/bulk/run-meta.js';

/** Shaping flags of each kind the run record knows: a path, a value, a boolean, and a value with a default. */
export const shaping: ShapingFlag[] = [
  { flag: '--map', key: 'map', path: true },
  { flag: '--delimiter', key: 'delimiter' },
  { flag: '--strict', key: 'strict', unset: false },
  { flag: '--route', key: 'route', unset: 'auto' },
];
