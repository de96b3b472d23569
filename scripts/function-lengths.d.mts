export interface FunctionLength {
  name: string;
  /** The line it starts on, from 1. */
  line: number;
  lines: number;
}
export function functionsOf(file: string, source: string): FunctionLength[];
export function sourceFiles(folder?: string): string[];
export function longFunctions(limit: number): (FunctionLength & { file: string })[];
