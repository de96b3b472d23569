/**
 * The signals that ask a command to stop cleanly: it finishes the requests in flight, reports them and exits 75
 * (a server exits 0). SIGHUP too: a run started by hand over ssh (`b2bctl … >> log 2>&1 &`) gets it when the
 * connection drops, and its default action ended a bulk run at once, silently, with the last request's items
 * applied but not in the report and no resume command. A leaf of its own: the process's start-up reads it.
 */
export const stopSignals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
export type StopSignal = (typeof stopSignals)[number];

/** 128 + the signal's number: what a shell reports for a process the signal ended (a run with nothing to finish). */
export const signalExitCodes = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const satisfies Record<StopSignal, number>;

export function isStopSignal(name: unknown): name is StopSignal {
  return (stopSignals as readonly unknown[]).includes(name);
}

/** The stop signal whose exit code this is (a SignalledError rebuilt from a thread carries only its code). */
export function signalEndingWith(exitCode: number | undefined): StopSignal | undefined {
  return stopSignals.find((signal) => signalExitCodes[signal] === exitCode);
}
