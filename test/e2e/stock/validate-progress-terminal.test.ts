/**
 * `validate` of a long input on a terminal: after a second, a count of the rows checked on the last line, redrawn in
 * place; a problem printed on the same terminal clears it first, and the end leaves no trace of it. The input comes
 * through a FIFO that the test fills as it likes, so the count is seen because the run is still going, not because
 * a machine was slow enough.
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir, sleep } from '../../support/cli.js';
import { requireTools } from '../../support/external-tools.js';
import { onTerminal, pseudoTerminal } from '../../support/pseudo-terminal.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

afterAll(() => removeTemporaryFolders());

const fifo = requireTools('mkfifo');

const rows = (from: number, count: number) =>
  Array.from({ length: count }, (_, index) => `SKU-${from + index},${(from + index) % 97},10.50\n`).join('');

describe.skipIf(pseudoTerminal.missing || fifo.missing)(
  `stock validate of a long input on a terminal${pseudoTerminal.note}${fifo.note}`,
  () => {
    it('shows a count after a second, clears it for a problem and at the end', async () => {
      const folder = freshWorkDir();
      const input = join(folder, 'stock.fifo');
      expect(spawnSync('mkfifo', [input]).status).toBe(0);
      let counting: Awaited<ReturnType<typeof onTerminal>>['screen'] | undefined;
      const { code, screen } = await onTerminal(['stock', 'validate', '-'], {
        env: { B2BCTL_CONFIG_DIR: freshConfigDir() },
        columns: 80,
        stdin: input,
        during: async (running) => {
          const writer = createWriteStream(input);
          writer.write('sku,quantity,price\n');
          let next = 1;
          const count = { shown: false };
          const counted = running.printed('records checked').then(() => (count.shown = true));
          // Rows keep coming until the count is drawn: it is drawn once the pass has run a second.
          while (!count.shown) {
            if (next > 300_000) throw new Error('no count drawn after 300,000 rows');
            writer.write(rows(next, 200));
            next += 200;
            await sleep(20);
          }
          await counted;
          counting = await running.screen();
          writer.write(`SKU-BAD,lots,10.50\n${rows(next, 500)}`);
          await new Promise<void>((resolve) => writer.end(resolve));
        },
      });
      expect(counting?.lines.at(-1)).toMatch(/^\d+ records checked \| \d+\/s \| invalid 0$/);
      expect(counting?.wrapped).toEqual([]);
      expect(counting?.cursorHidden).toBe(true);

      expect(code).toBe(65);
      expect(screen.lines.filter((line) => line.includes('records checked'))).toEqual([]);
      const problem = screen.lines.findIndex((line) => line.startsWith('stdin:'));
      expect(screen.lines[problem]).toMatch(/^stdin:\d+: .*\[lots\]/);
      expect(screen.lines.slice(problem + 1).map((line) => line.replace(/ in \d+\.\d s\./, ' in N s.'))).toEqual([
        expect.stringMatching(/^stdin: \d+ records, \d+ valid, 1 invalid \(1 problem\) in N s\.$/),
        expect.stringMatching(/^error: 1 of \d+ records of stdin is invalid/),
      ]);
      expect(screen.cursorHidden).toBe(false);
    });
  },
);
