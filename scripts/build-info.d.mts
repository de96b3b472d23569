export const packageJson: { version: string; [key: string]: unknown };
export function buildCommit(folder?: string): string;
export function versionLine(commit?: string): string;
export function buildDefines(line?: string): { B2BCTL_VERSION: string; B2BCTL_VERSION_LINE: string };
