import type { BacklogHealth } from './backlog.js';

/** One hand-off on /healthz: its name and its figures (pending, oldest pending, dead, ...). */
export type PublicHandOffHealth = { name: string } & Record<string, number | boolean | string>;

/**
 * What /healthz shows: it answers without a token (a load balancer asks it), so each hand-off is given by its name
 * and its figures only. Text such as the target or an error, which may hold a URL's credentials, stays off it;
 * `webhook status` shows the target (without credentials) to those who can read the store.
 */
export function healthPage<Health extends BacklogHealth>(
  health: Health,
): Omit<Health, 'handOffs'> & { handOffs: PublicHandOffHealth[] } {
  return {
    ...health,
    handOffs: health.handOffs.map((handOff) => {
      const shown: PublicHandOffHealth = { name: handOff.name };
      for (const [field, value] of Object.entries(handOff))
        if (typeof value === 'number' || typeof value === 'boolean') shown[field] = value;
      return shown;
    }),
  };
}
