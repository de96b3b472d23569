/**
 * Waits until `condition` holds, looking again every 10 ms: for what a command running in process does in its own
 * time (a file written, a line logged). The test's own time limit ends a wait for what never comes.
 */
export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}
