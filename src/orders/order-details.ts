import pLimit from 'p-limit';
import { ExitCode, KeptFailingError, PlatformError } from '../base/errors.js';
import { sameOrderKey } from '../domain/order-keys.js';
import { versionKey } from '../domain/orders-window.js';
import { once } from '../lib/once.js';
import {
  type OrderAnswerSettings,
  olderDetailInstant,
  readListedOrder,
  showsIdOrNumber,
  unplacedDetailWarning,
  unreadableUpdateStamp,
  updateStampPaths,
} from '../platform/answers/orders.js';
import { isRecord } from '../platform/answers/shapes.js';
import type { PlatformClient } from '../platform/client.js';
import { getOrder, type ListedOrder, UnreadableOrderDetail } from '../platform/orders.js';
import type { PollProgress } from './poll-progress.js';
import { FailedDetail } from './failed-detail.js';

/**
 * `orders poll --detail`: each listed version's detail, fetched a few at a time, and what it is written as: the
 * detail, a newer version it shows, or its listing entry when the detail is gone, holds no order, or is older.
 */

/**
 * The version a detail is: an order changed between the listing and its detail is the newer version, named by its
 * own lastUpdated (a file ID-NUMBER-LASTUPDATED.json holds what its name says) and remembered as emitted, so the
 * next run, which lists that version, does not write it again.
 */
export function versionShown(
  listed: ListedOrder,
  detail: unknown,
  answers: OrderAnswerSettings,
  progress: PollProgress,
): ListedOrder {
  const read = readListedOrder(detail, answers);
  if (read === undefined || !sameOrderKey(read.id, listed.id)) return listed;
  if (!(Date.parse(read.lastUpdated) > Date.parse(listed.lastUpdated))) return listed;
  // Remembered without a digest: the entry the listing will show for this version is not known yet (newVersions).
  const newer: ListedOrder = { ...listed, lastUpdated: read.lastUpdated };
  delete newer.contentDigest;
  delete newer.formerContentDigest;
  const key = versionKey(newer);
  progress.emitted.add(key);
  // An instant without a zone says nothing of where the platform will list this version: remembered through this
  // run's saves, and after it for as long as the next runs list it.
  if (read.zonelessInstant !== undefined) progress.noteListed(key, Number.POSITIVE_INFINITY);
  return newer;
}

/**
 * The detail of each version, `concurrency` at a time, in the order given; a FailedDetail for an order whose detail
 * answered an error of its own.
 */
export async function fetchDetails(
  client: PlatformClient,
  versions: readonly ListedOrder[],
  {
    concurrency,
    answers,
    saidStampUnread,
  }: { concurrency: number; answers: OrderAnswerSettings; saidStampUnread: (line: string) => void },
  warn: (line: string) => void,
): Promise<unknown[]> {
  const limit = pLimit(Math.max(1, concurrency));
  const saidUnplaced = once(warn);
  return await Promise.all(
    versions.map((version) =>
      limit(async () => {
        try {
          const detail = await getOrder(client, version.id, undefined, undefined, version.orderNumber);
          // Taken as the order, as it came (a 2xx is not refused for its shape); but an envelope of the store's own
          // (`{"pedido":{…}}`) is then written whole, and the reader is told where to point b2bctl, once a run.
          if (isRecord(detail) && !showsIdOrNumber(detail, answers)) saidUnplaced(unplacedDetailWarning(version.id));
          const written = olderDetailReplaced(version, detail, answers, warn);
          const stampUnread =
            written === detail && isRecord(detail) && showsIdOrNumber(detail, answers)
              ? unreadDetailStamp(version, detail, answers)
              : undefined;
          if (stampUnread !== undefined) saidStampUnread(unreadDetailStampWarning(version, stampUnread));
          return written;
        } catch (error) {
          // A listed order whose detail is gone (deleted, or not yet readable) or holds no order (no JSON, `null`,
          // another order's record) would fail every run from here on, and hold back every later update: its listing
          // entry is written in its place, and said.
          const answered = missingDetail(error);
          if (answered === undefined) return failedDetail(error) ?? throwAgain(error);
          warn(
            `warning: order ${String(version.id)} (updated ${version.lastUpdated}) is listed but its detail ${answered}: its listing entry was written in its place; b2bctl orders get ${String(version.id)} reads it later.`,
          );
          return version.record;
        }
      }),
    ),
  );
}

/**
 * A detail older than the listing entry it was fetched for (a platform replica lagging behind the one that lists):
 * written, it would move the ERP's order back, and the cursor would pass the listed version, never emitted. Its
 * listing entry is written in its place, as for a detail that is not the order, and said.
 */
function olderDetailReplaced(
  version: ListedOrder,
  detail: unknown,
  answers: OrderAnswerSettings,
  warn: (line: string) => void,
): unknown {
  const detailUpdated = olderDetailInstant(version, detail, answers);
  if (detailUpdated === undefined) return detail;
  warn(
    `warning: order ${String(version.id)} is listed updated ${version.lastUpdated}, but its detail is an older version (updated ${detailUpdated}: a platform replica lagging behind): its listing entry was written in its place; b2bctl orders get ${String(version.id)} reads it later.`,
  );
  return version.record;
}

/**
 * What a detail that shows the order holds where its update stamp should be, when b2bctl reads no instant there (or
 * only the creation instant, the stamp unset, while the listing names an update): its version cannot be compared with
 * the one listed, so the older-detail check above is off for it. Undefined when the stamp is read.
 */
function unreadDetailStamp(
  version: ListedOrder,
  detail: Record<string, unknown>,
  answers: OrderAnswerSettings,
): string | undefined {
  const read = readListedOrder(detail, answers);
  if (read !== undefined && (read.neverUpdated === undefined || version.neverUpdated !== undefined)) return undefined;
  const unreadable = unreadableUpdateStamp(detail, updateStampPaths(answers));
  if (unreadable !== undefined) return `${unreadable.path} ${JSON.stringify(unreadable.value)}`;
  return read?.neverUpdated ? `${read.neverUpdated.updateField} unset` : 'its update stamp unset or absent';
}

/**
 * Said once a run. The detail is still written, not its listing entry: it is read after the listing, so it is the
 * listed version or a newer one unless a replica lags, which b2bctl cannot tell here; and a platform whose detail
 * writes its stamp in another form would otherwise have --detail write listing entries, without items, for good.
 */
function unreadDetailStampWarning(version: ListedOrder, shown: string): string {
  const id = String(version.id);
  return `warning: order ${id} is listed updated ${version.lastUpdated}, but its detail shows no update instant b2bctl reads (${shown}), so b2bctl cannot tell whether it is that version or an older one (a platform replica lagging behind): it was written as it came, as every such detail of this run. b2bctl orders get ${id} shows the answer; if the detail keeps its update instant under a field of its own, set answers.orders.lastUpdated to it.`;
}

/**
 * The error an order's detail answered, when it is that order's own: any status but a refused login (401, 403), once
 * the client's retries are spent (a 500 is not retried; a 502, 503 or 504 that kept coming is). The listing answered
 * just before, so the platform is up and this order is what fails. No answer at all (a reset, a time-out) and a
 * platform throttling every request are the platform's, and stop the run as before: set aside, every order of an
 * outage would go pending.
 */
function failedDetail(error: unknown): FailedDetail | undefined {
  if (error instanceof PlatformError && error.exitCode !== ExitCode.authFailed)
    return new FailedDetail(error.status, error.platformMessage);
  if (error instanceof KeptFailingError && error.status >= 500) return new FailedDetail(error.status, undefined);
  return undefined;
}

function throwAgain(error: unknown): never {
  throw error;
}

/** How a listed order's detail failed to give it, when its listing entry is to stand in for it; else undefined. */
function missingDetail(error: unknown): string | undefined {
  if (error instanceof UnreadableOrderDetail) return `answered ${error.status} with ${error.instead}`;
  return error instanceof PlatformError && error.status === 404 ? 'answered 404' : undefined;
}
