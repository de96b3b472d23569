import { readFileSync } from 'node:fs';

/**
 * Whether a process with this id exists: a lock or a spool whose owner is gone can be taken over or removed. Given
 * the start time its owner recorded (processStartTime), a process that now has the id but started at another time is
 * not the owner: the id was reused after a crash or a reboot.
 */
export function isProcessAlive(pid: number, startTime?: string): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (startTime === undefined) return true;
  const current = processStartTime(pid);
  return current === undefined || current === startTime;
}

/**
 * When the process started, as the kernel counts it (Linux: /proc/<pid>/stat's 22nd field, clock ticks since boot);
 * undefined where the system does not say. Together with the id it names one process across id reuse.
 */
export function processStartTime(pid: number): string | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces and parentheses: count from the last one.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const start = fields[19];
  return start !== undefined && /^\d+$/.test(start) ? start : undefined;
}

/** Ends process group `group` at once (SIGKILL to the group a command was started as the leader of); gone is fine. */
export function killProcessGroup(group: number): void {
  try {
    process.kill(-group, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
