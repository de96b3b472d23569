import { once } from 'node:events';

/** Written at once when this much is waiting, so a fast producer does not hold a file's worth of text. */
const flushAtCharacters = 64 * 1024;

export interface BatchedWriter {
  /** Queues text; resolves late only when the stream asked to wait (backpressure), as a plain write would. */
  write(text: string): Promise<void> | undefined;
  /** Writes what is waiting and waits for the stream to take it. */
  flush(): Promise<void>;
}

/**
 * Text written to a stream in batches. A line per problem is one system call each on a pipe or a file (stdout and
 * stderr are synchronous there): 20,000 of them were most of the time of `validate` on a file of duplicates.
 * Lines wait at most until the event loop's next turn (one chunk of input read), or until 64 KB are
 * waiting, so a reader still sees them as they come; `flush` before anything else writes to the stream.
 */
export function batchedWriter(stream: NodeJS.WritableStream): BatchedWriter {
  let waiting: string[] = [];
  let waitingCharacters = 0;
  let scheduled = false;
  let drained: Promise<void> | undefined;
  const writeWaiting = () => {
    scheduled = false;
    if (waiting.length === 0) return;
    const text = waiting.length === 1 ? (waiting[0] as string) : waiting.join('');
    waiting = [];
    waitingCharacters = 0;
    if (!stream.write(text) && drained === undefined) {
      drained = once(stream, 'drain').then(() => {
        drained = undefined;
      });
      // Whoever awaits it sees a failure of the stream; a batch written on the next turn may have no one waiting.
      drained.catch(() => {});
    }
  };
  return {
    write(text) {
      waiting.push(text);
      waitingCharacters += text.length;
      if (waitingCharacters >= flushAtCharacters) writeWaiting();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(writeWaiting);
      }
      return drained;
    },
    async flush() {
      writeWaiting();
      await drained;
    },
  };
}
