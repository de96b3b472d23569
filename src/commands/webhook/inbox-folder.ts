import { join } from 'node:path';
import { configDirectory } from '../../config/location.js';

/** The folder of the inbox when --inbox is not given: beside the profiles, in the config folder. */
export function defaultInboxDirectory(env: Readonly<Record<string, string | undefined>>): string {
  return join(configDirectory(env), 'webhooks', 'inbox');
}
