import type { SandboxOptions } from './options.js';
import { SandboxClock } from './clock.js';
import { loadOrderMaterial, seedOrders } from './orders/seed.js';
import { loadSalesReps } from './sellers-seed.js';
import { SandboxState } from './state.js';

/**
 * Builds a sandbox's state from the seed folder, before any route exists: sales reps and orders here (customers and
 * the stock catalogue are still seeded by their route registration). The clock is the one every route reads.
 */
export function seedSandboxState(options: SandboxOptions, clock = new SandboxClock()): SandboxState {
  const material = loadOrderMaterial(options.seedDirectory);
  const state = new SandboxState(clock, seedOrders(material, clock.now(), options.orderCount ?? 300));
  state.sellers = loadSalesReps(options.seedDirectory);
  state.orders.churnProbability = options.orderChurn ?? 0;
  return state;
}
