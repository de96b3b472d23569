import type { CommandRuns } from './command-runs.js';
import type { HandOffState } from './hand-off.js';

/** Whether the store took the last record of an `--exec` command's process group: what /healthz says of it. */
export interface RunRecording {
  /** Since when the records fail (the last one failed); undefined once one went through. */
  failingSince?: number;
  error?: string;
}

/**
 * The `--exec` hand-off's records of its commands' groups, watched for /healthz: a store that cannot record one (a
 * full disk) is the receiver's own problem, which `/healthz` says as `store cannot write` (503), as it does when an
 * event cannot be stored. It answered `200 {"status":"ok"}` meanwhile (a user test), while every try of the command
 * was stopped before it ran.
 */
export function watchedRecording(runs: CommandRuns, recording: RunRecording, now: () => number): CommandRuns {
  return {
    ...runs,
    started: (processGroup, event) =>
      runs.started(processGroup, event).then(
        () => {
          recording.failingSince = undefined;
          recording.error = undefined;
        },
        (error: unknown) => {
          recording.failingSince ??= now();
          recording.error = (error as Error).message;
          throw error;
        },
      ),
  };
}

/** A hand-off's state for /healthz, with its command records' failure when its own deliveries' records do not fail. */
export function withRecording(state: HandOffState, recording: RunRecording | undefined): HandOffState {
  if (recording?.failingSince === undefined || state.storeFailingSince !== undefined) return state;
  return { ...state, storeFailingSince: recording.failingSince, storeError: recording.error };
}
