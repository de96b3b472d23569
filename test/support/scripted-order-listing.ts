/**
 * The orders listing of a scripted store (scripted-platform.ts), read as the sandbox reads it: the window its
 * updatedFrom/updatedTo name, the page its offset and limit name, the statuses it filters by. What a test varies
 * (the entries, their order, how a page spells them) stays in the test.
 */
import type { IncomingMessage } from 'node:http';

/** What one listing request asks for. */
export interface ListingAsk {
  /** The window's ends, in milliseconds (NaN when the request names none). */
  from: number;
  to: number;
  offset: number;
  limit: number;
  /** The `status` filters, as sent; empty when the request filters by none. */
  statuses: string[];
  query: URLSearchParams;
}

export function listingAsk(request: IncomingMessage): ListingAsk {
  const query = new URL(request.url ?? '/', 'http://store.invalid').searchParams;
  return {
    from: Date.parse(query.get('updatedFrom') ?? ''),
    to: Date.parse(query.get('updatedTo') ?? ''),
    offset: Number(query.get('offset')),
    limit: Number(query.get('limit')),
    statuses: query.getAll('status'),
    query,
  };
}

/**
 * The page of `entries` a listing request asks for: those updated inside its window (ends included), from its
 * offset, its limit many, in the order given. With `byStatus`, only those in one of the statuses it asks for, as a
 * store that filters by the exact text of its words; without, the store ignores the filter.
 */
export function listingPage<Entry>(
  entries: readonly Entry[],
  ask: ListingAsk,
  {
    updatedAt = (entry) => Date.parse(String((entry as { lastUpdated?: unknown }).lastUpdated)),
    byStatus = false,
  }: { updatedAt?: (entry: Entry) => number; byStatus?: boolean } = {},
): Entry[] {
  return entries
    .filter((entry) => updatedAt(entry) >= ask.from && updatedAt(entry) <= ask.to)
    .filter(
      (entry) =>
        !byStatus || ask.statuses.length === 0 || ask.statuses.includes(String((entry as { status?: unknown }).status)),
    )
    .slice(ask.offset, ask.offset + ask.limit);
}
