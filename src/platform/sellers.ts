import type { SalesRep } from '../domain/sales-rep.js';
import type { PlatformClient } from './client.js';

export interface SellerPageQuery {
  email?: string;
  limit?: number;
  offset?: number;
}

/** One page of `GET /sellerModule/listSellers`. */
export async function listSellers(client: PlatformClient, query: SellerPageQuery): Promise<SalesRep[]> {
  const { body } = await client.send<unknown>({
    method: 'GET',
    path: client.route('paths.sellers'),
    query: { limit: query.limit, offset: query.offset, email: query.email },
  });
  if (!Array.isArray(body)) throw new Error(`the sales rep listing answered ${typeof body} instead of an array`);
  return body as SalesRep[];
}

/** Every sales rep from `offset` on, page by page until the platform answers `[]`. */
export async function* listAllSellers(
  client: PlatformClient,
  query: { email?: string; pageSize: number; offset?: number },
): AsyncGenerator<SalesRep> {
  let offset = query.offset ?? 0;
  for (;;) {
    const page = await listSellers(client, { email: query.email, limit: query.pageSize, offset });
    if (page.length === 0) return;
    yield* page;
    offset += page.length;
  }
}
