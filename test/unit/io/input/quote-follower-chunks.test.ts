import { describe, expect, it } from 'vitest';
import { cutAnywhere, seededRandom } from '../../../support/seeded-text.js';
import { type FollowedText, followAll } from '../../../support/followed-pieces.js';

// The quote follower skips character-by-character work for a chunk without a quote (most chunks of an ERP export).
// Cut anywhere, a text must give what it gives in one piece: there it holds quotes, so every character is looked at.

/** What the follower found, without where each piece's records ended (which depends on the cut). */
async function follow(chunks: readonly string[], delimiter: string): Promise<Omit<FollowedText, 'recordEnds'>> {
  const { recordEnds, ...found } = await followAll(chunks, delimiter);
  void recordEnds;
  return found;
}

/** Rows of plain, empty, quoted (with `""` and line breaks inside), delimiter-only and `"Ana"x` cells, and blank lines. */
function csvText(next: () => number, delimiter: string): string {
  const cells = ['SKU-1', '', '12', '"a""b"', '"two\nlines"', '"x"y', ' ', '"', 'wide cell text'];
  let text = '';
  const rows = 5 + Math.floor(next() * 30);
  for (let row = 0; row < rows; row++) {
    if (next() < 0.1) {
      text += '\n';
      continue;
    }
    const width = 1 + Math.floor(next() * 4);
    const parts: string[] = [];
    for (let cell = 0; cell < width; cell++) parts.push(cells[Math.floor(next() * cells.length)] as string);
    text += `${parts.join(delimiter)}${next() < 0.1 ? '\r\n' : '\n'}`;
  }
  // A quote in the whole text, so the one-piece run takes the character-by-character path throughout.
  return `${text}"end"\n`;
}

describe('quote follower on chunks without quotes', () => {
  it.each([',', ';', '\t'])(
    'names the same record lines and rows however the text is cut (delimiter %j)',
    async (delimiter) => {
      for (let seed = 1; seed <= 300; seed++) {
        const next = seededRandom(seed);
        const text = csvText(next, delimiter);
        const whole = await follow([text], delimiter);
        const chunked = await follow(cutAnywhere(text, next, 12), delimiter);
        expect({ seed, ...chunked }).toEqual({ seed, ...whole });
      }
    },
  );

  it('reports an unclosed quote opened after a chunk without quotes at its own line', async () => {
    const tracker = await follow(['a,b\n1,2\n', '3,', '"open\n', 'more\n'], ',');
    expect(tracker.openQuoteLine).toBe(3);
    expect(tracker.recordStarts).toEqual([1, 2, 3]);
  });

  it('counts a row of delimiters as a record and an empty line as none', async () => {
    const tracker = await follow(['a,b\n\n,,\n', '\nx,y\n'], ',');
    expect(tracker.recordStarts).toEqual([1, 3, 5]);
    expect(tracker.recordRows).toEqual([1, 3, 5]);
  });
});
