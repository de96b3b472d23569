import type { EventStore, NewEvent } from '../../src/webhook/store/types.js';

/** Runs the real append (its commit included), or not: a test holds it pending, fails it, or counts it. */
export type AppendInterceptor = (
  append: () => Promise<{ stored: boolean }>,
  event: NewEvent,
) => Promise<{ stored: boolean }>;

/**
 * The store with its appends passed through `intercept`, every other call the real store's: what the receiver
 * does while a commit is slow or fails (a full disk), with no hook in the store's production options.
 */
export function interceptedAppends<Store extends EventStore>(store: Store, intercept: AppendInterceptor): Store {
  return new Proxy(store, {
    get(target, property) {
      if (property === 'append') return (event: NewEvent) => intercept(() => target.append(event), event);
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...values: unknown[]) => unknown).bind(target) : value;
    },
  });
}
