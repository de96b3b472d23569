/**
 * A store's own status words (the platform's document lists no statuses), as the `answers.order.statusWords` setting
 * maps them to b2bctl's stages: `PRONTO_PARA_ENVIO=READY_TO_SHIP,CANCELADO=CANCELED`. Without it, every move's check
 * on such a store was `unknown`, and a cancellation for ever: a canceled order holds none of the data that tells a
 * move (a user test). Read whatever the case, as b2bctl's own words are.
 */

/**
 * The statuses b2bctl reads a meaning in: the platform's first one, and the stages it moves orders through
 * (order-stages.ts has their words and rules). Here, beside the setting's parser, so that reading the setting (which
 * every command's settings load, `--help` too) does not load the moves' rules.
 */
export const knownStatuses: ReadonlySet<string> = new Set([
  'AWAITING_PAYMENT',
  'READY_TO_SHIP',
  'INVOICED',
  'SHIPPED',
  'DELIVERED',
  'CANCELED',
]);

/**
 * A store's own status words, each as the stage b2bctl reads it as (`PRONTO_PARA_ENVIO` → `READY_TO_SHIP`), keyed by
 * statusWordKey: the `answers.order.statusWords` setting.
 */
export type StoreStatusWords = ReadonlyMap<string, string>;

/** A status word as words are compared: whatever its case, `-` and spaces as `_` (`pronto para envio`). */
export function statusWordKey(word: string): string {
  return word
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_');
}

/** The statuses a store's own word may be read as: the platform's first status, and the stages of the moves. */
function orderStages(): readonly string[] {
  return [...knownStatuses];
}

/** The setting's text as the words it maps, or what is wrong with one of its entries. */
export function parseStoreStatusWords(text: string): { words: StoreStatusWords } | { problem: string } {
  const words = new Map<string, string>();
  const entries = text.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const read = readEntry(entry);
    if ('problem' in read) return read;
    const earlier = words.get(read.theirs);
    if (earlier !== undefined && earlier !== read.ours)
      return { problem: `maps ${read.theirs} twice, to ${earlier} and to ${read.ours}: give each word one stage` };
    words.set(read.theirs, read.ours);
  }
  return { words };
}

/** One `THEIRS=OURS` entry, each side as statusWordKey writes it. */
function readEntry(entry: string): { theirs: string; ours: string } | { problem: string } {
  const format = `each entry is THEIRS=OURS, OURS one of ${orderStages().join(', ')}`;
  if (entry === '') return { problem: `has an empty entry (two commas, or one at an end): ${format}` };
  const [theirsText, oursText, ...more] = entry.split('=');
  if (oursText === undefined || more.length > 0) return { problem: `has the entry "${entry}": ${format}` };
  const theirs = statusWordKey(theirsText ?? '');
  const ours = statusWordKey(oursText) === 'CANCELLED' ? 'CANCELED' : statusWordKey(oursText);
  if (theirs === '') return { problem: `has the entry "${entry}", which names no word of the store's: ${format}` };
  if (!orderStages().includes(ours))
    return { problem: `maps ${theirs} to "${oursText.trim()}", which is no stage of b2bctl's: ${format}` };
  // b2bctl's own words keep their meaning: read otherwise, a store's SHIPPED would be taken for another stage.
  const own = theirs === 'CANCELLED' ? 'CANCELED' : theirs;
  if (orderStages().includes(own) && own !== ours)
    return { problem: `maps ${theirs}, a word b2bctl reads as ${own} already, to ${ours}` };
  return { theirs, ours };
}

/**
 * `orders poll --status` on a store with words of its own: the stage each value asked stands for (the store's word or
 * b2bctl's stage, whatever its case), and the `status` filters the listing is sent: a store's word as the setting
 * writes it; a stage as every word of the store's for it, and itself (a store may write some of b2bctl's words). A
 * value that is neither is a problem naming the words known: the store's words are known here, so a typo need not
 * list nothing for ever.
 */
export function statusFilterOfStore(
  asked: readonly string[],
  words: StoreStatusWords,
): { listed: string[] } | { problem: string } {
  const listed = new Set<string>();
  for (const value of asked) {
    const key = statusWordKey(value);
    if (words.has(key)) {
      listed.add(key);
      continue;
    }
    const stage = key === 'CANCELLED' ? 'CANCELED' : key;
    if (!knownStatuses.has(stage)) return { problem: unknownStatusProblem(value, words) };
    for (const [theirs, ours] of words) if (ours === stage) listed.add(theirs);
    listed.add(stage);
  }
  return { listed: [...listed] };
}

/** Words in a sentence: `A, B and C`. */
const list = (names: readonly string[]) => names.join(', ').replace(/, (?!.*, )/, ' and ');

function unknownStatusProblem(value: string, words: StoreStatusWords): string {
  return `--status ${value}: no status of this store (answers.order.statusWords names ${list([...words.keys()])}, and b2bctl's stages are ${list(orderStages())}); nothing was fetched. Give one of those, in any case`;
}
