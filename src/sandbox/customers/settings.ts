import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ConfigError, InputError } from '../../base/errors.js';

/** A price tag, customer type or customer group the store knows, which customers link to. */
export interface LinkTarget {
  id: number;
  name: string;
  externalId: string | null;
}

/** The store settings the customer rules depend on (docs/platform.md: ZIP validation, lat/lng feature, SSO, links). */
export interface StoreSettings {
  /** false: a ZIP code missing from the lookup table is accepted (street and quarter then come from the payload). */
  zipValidation: boolean;
  /** true: addresses may carry lat and lng. */
  latLngFeature: boolean;
  ssoConfigIds: number[];
  /** Linked by name (the platform document says "by name" for price tags). */
  priceTags: LinkTarget[];
  /** Linked by name or externalId. */
  customerTypes: LinkTarget[];
  /** Linked by name or externalId. */
  customerGroups: LinkTarget[];
}

export const defaultStoreSettings: StoreSettings = {
  zipValidation: true,
  latLngFeature: false,
  ssoConfigIds: [],
  priceTags: [],
  customerTypes: [],
  customerGroups: [],
};

const targetList = z
  .array(
    z.strictObject({
      id: z.number().int().positive().optional(),
      name: z.string().trim().min(1),
      externalId: z.string().trim().min(1).nullable().optional(),
    }),
  )
  .transform((items) =>
    items.map((item, index) => ({ id: item.id ?? index + 1, name: item.name, externalId: item.externalId ?? null })),
  );

const settingsSchema = z.strictObject({
  zipValidation: z.boolean().default(defaultStoreSettings.zipValidation),
  latLngFeature: z.boolean().default(defaultStoreSettings.latLngFeature),
  ssoConfigIds: z.array(z.number().int()).default([]),
  priceTags: targetList.default([]),
  customerTypes: targetList.default([]),
  customerGroups: targetList.default([]),
});

/** Settings from a parsed JSON value, missing keys at their defaults; throws an Error naming `source` and the bad key. */
export function parseStoreSettings(value: unknown, source: string): StoreSettings {
  const parsed = settingsSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
  throw new ConfigError(`${source}: invalid store settings${where}: ${issue?.message ?? 'unknown problem'}`, source);
}

/** JSON Merge Patch (RFC 7396): objects merge key by key, null removes a key, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch;
  const result: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}

/** `store-settings.json` of the seed folder when present, then the `--settings` file merged over it. */
export function loadStoreSettings(seedDirectory: string, settingsFile?: string): StoreSettings {
  let merged: unknown = {};
  const seedFile = join(seedDirectory, 'store-settings.json');
  if (existsSync(seedFile)) merged = readJson(seedFile);
  if (settingsFile) merged = mergePatch(merged, readJson(settingsFile));
  try {
    return parseStoreSettings(merged, settingsFile ?? seedFile);
  } catch (error) {
    if (!settingsFile || !(error instanceof ConfigError)) throw error;
    throw new ConfigError(`${error.message}. Fix the file passed to --settings.`, settingsFile, { cause: error });
  }
}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new InputError(`Cannot read the store settings ${file}: ${(error as Error).message}`, {
      file,
      missing: true,
    });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file} is not valid JSON: ${(error as Error).message}`, file, { cause: error });
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
