import type { ErrorAnswer } from '../dialects/dialect.js';
import type { Dialect } from '../dialects/index.js';
import type { ListingItem } from './store.js';

/**
 * The named listings' items as each dialect names their fields: the default keeps the platform's words
 * (dateCreated, lastUpdated), Spring its auditing names, the gateway createdAt/updatedAt, the legacy platform
 * ids as text. The page's envelope is the dialect's listingAnswer.
 */
export function listingItemIn(dialect: Dialect, item: ListingItem): Record<string, unknown> {
  const { dateCreated, lastUpdated, ...rest } = item;
  switch (dialect.name) {
    case 'spring':
      return { ...rest, createdDate: dateCreated, lastModifiedDate: lastUpdated };
    case 'gateway':
      return { ...rest, createdAt: dateCreated, updatedAt: lastUpdated };
    case 'legacy':
      return { ...item, id: String(item.id) };
    default:
      return item;
  }
}

/**
 * The 400 that ends the cashback balance listing, in the dialect's error shape but always with the document's
 * own words, `no record found`: the one error wording the document gives.
 */
export function noRecordFoundAnswer(dialect: Dialect, message: string, path: string): ErrorAnswer {
  switch (dialect.name) {
    case 'spring':
      return {
        body: { timestamp: new Date().toISOString(), status: 400, error: 'Bad Request', message, path },
      };
    case 'legacy':
      return { body: message, contentType: 'text/plain; charset=utf-8' };
    default:
      return dialect.errorAnswer(400, message, path);
  }
}
