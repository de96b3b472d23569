import type { SettingDefinition } from '../../config/settings.js';
import { candidatePaths, firstAt, isArray } from './shapes.js';

/**
 * Listings. The document shows the sales rep listing as a bare array ending with `[]`; a gateway
 * may wrap pages in an envelope (`{"content":[...]}`, `{"data":[...]}`). An empty 200 ends the listing.
 */
export const listingAnswerSettings: readonly SettingDefinition[] = [
  {
    key: 'answers.sellers.items',
    description: 'Where a sales rep listing page holds its array (dot path; default: the body itself, data, items, …)',
  },
];

export const recognisedListPaths = [
  '',
  'data',
  'items',
  'content',
  'results',
  'records',
  'rows',
  'sellers',
  'list',
  'data.items',
  'data.content',
] as const;

/** The records of a listing page, or undefined when no recognised place holds an array. */
export function readListingPage(body: unknown, setting?: string): unknown[] | undefined {
  if (body === undefined || body === null) return [];
  return firstAt(body, candidatePaths(setting, recognisedListPaths), isArray)?.value;
}

/** Where a listing page holds its array, for `b2bctl doctor`: `''` for a bare array. */
export function locateListingPage(body: unknown, setting?: string): { path: string; count: number } | undefined {
  if (body === undefined || body === null) return { path: '(empty body)', count: 0 };
  const found = firstAt(body, candidatePaths(setting, recognisedListPaths), isArray);
  return found ? { path: found.path, count: found.value.length } : undefined;
}
