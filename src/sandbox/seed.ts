import { defaultStockSchema } from '../domain/stock.js';
import { loadCepTable } from './customers/cep-table.js';
import { loadStoreSettings } from './customers/settings.js';
import type { SandboxOptions } from './options.js';
import { loadCatalogue } from './stock/catalogue.js';
import { StockState } from './stock/state.js';
import { SandboxClock } from './clock.js';
import { defaultSeededOrders, loadOrderMaterial, seedOrders } from './orders/seed.js';
import { loadSalesReps } from './sellers-seed.js';
import { SandboxState } from './state.js';
import { ListingStore } from './listings/store.js';

/**
 * Builds a sandbox's state from the seed folder, before any route exists: sales reps, store settings and CEP table,
 * the stock catalogue, orders. Routes only read and change it. The clock is the one every route reads.
 */
export function seedSandboxState(options: SandboxOptions, clock = new SandboxClock()): SandboxState {
  const material = loadOrderMaterial(options.seedDirectory);
  const state = new SandboxState(clock, seedOrders(material, clock.now(), options.orderCount ?? defaultSeededOrders));
  state.sellers = loadSalesReps(options.seedDirectory);
  state.customers.settings = loadStoreSettings(options.seedDirectory, options.settingsFile);
  state.customers.ceps = loadCepTable(options.seedDirectory);
  state.stock = new StockState(
    loadCatalogue(options.seedDirectory, options.generatedSkus),
    options.stockSchema ?? defaultStockSchema,
  );
  state.orders.churnProbability = options.orderChurn ?? 0;
  state.listings = new ListingStore(
    material.customers.map((customer) => customer.document),
    () => clock.now(),
  );
  return state;
}
