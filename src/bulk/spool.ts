import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

/**
 * Copies stdin to a private temporary file, because a bulk run reads its input twice (validate,
 * then send) and stdin can be read only once. Memory stays flat; the file goes when the run ends.
 */
export async function spoolStdin(stdin: NodeJS.ReadableStream): Promise<{ path: string; remove(): void }> {
  const folder = mkdtempSync(join(tmpdir(), 'b2bctl-stdin-'));
  const path = join(folder, 'stdin');
  const remove = () => rmSync(folder, { recursive: true, force: true });
  try {
    await pipeline(stdin, createWriteStream(path, { mode: 0o600 }));
  } catch (error) {
    // A partial copy may hold customers' passwords: it goes with the failure.
    remove();
    throw error;
  }
  return { path, remove };
}
