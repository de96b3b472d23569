import { followRecords } from '../../src/io/input/text-decoding.js';

/** What the quote follower found in a whole text, gathered from the pieces it yields. */
export interface FollowedText {
  text: string;
  openQuoteLine: number | undefined;
  recordStarts: number[];
  recordRows: number[];
  textAfterClosingQuoteLine: number | undefined;
  /** Where, in the whole normalized text, each piece's whole records ended, with the line after them. */
  recordEnds: { at: number; lineAfter: number }[];
}

async function* fromChunks(chunks: readonly string[]): AsyncGenerator<string> {
  for (const chunk of chunks) yield chunk;
}

/** Follows `chunks` as the CSV reader does and gathers what every piece said. */
export async function followAll(chunks: readonly string[], delimiter: string): Promise<FollowedText> {
  const followed: FollowedText = {
    text: '',
    openQuoteLine: undefined,
    recordStarts: [],
    recordRows: [],
    textAfterClosingQuoteLine: undefined,
    recordEnds: [],
  };
  for await (const piece of followRecords(fromChunks(chunks), delimiter)) {
    if (piece.recordsEnd > 0)
      followed.recordEnds.push({ at: followed.text.length + piece.recordsEnd, lineAfter: piece.lineAfterRecords });
    followed.text += piece.text;
    followed.recordStarts.push(...piece.recordStarts);
    followed.recordRows.push(...piece.recordRows);
    followed.openQuoteLine = piece.openQuoteLine;
    followed.textAfterClosingQuoteLine ??= piece.textAfterClosingQuoteLine;
  }
  return followed;
}
