/**
 * The closing line every bulk run ends its log with off a terminal (src/bulk/closing-line.ts): file, store,
 * counts, exit code. The run helpers move it from `stderr` into `closingLine`, having checked that its exit code
 * is the process's, so every bulk run in the suite checks it and the tests about the other lines read them alone.
 */
// Any bulk command (`stock push`, `customer create`, `orders update`…): one or more lower-case words.
const closingPattern = new RegExp(
  `^(?:\\S+Z )?[a-z]+(?: [a-z]+)*: .+ to profile "[^"]+"(?: \\(.+\\))?: .+; exit (\\d+)$`,
);

/** The last line of `stderr` when it is a bulk run's closing line (text, plain or JSON), with its exit code. */
function lastClosingLine(stderr: string): { line: string; exitCode: number } | undefined {
  const lines = stderr.split('\n');
  const last = lines.at(-2) === undefined || lines.at(-1) !== '' ? undefined : lines.at(-2);
  if (last === undefined) return undefined;
  if (last.startsWith('{')) {
    try {
      const object = JSON.parse(last) as { message?: string; fields?: { exitCode?: number } };
      const exitCode = object.fields?.exitCode;
      if (typeof object.message === 'string' && closingPattern.test(object.message) && typeof exitCode === 'number')
        return { line: last, exitCode };
    } catch {
      return undefined;
    }
    return undefined;
  }
  const match = closingPattern.exec(last);
  return match ? { line: last, exitCode: Number(match[1]) } : undefined;
}

/** `result` with a closing line moved out of `stderr`; throws when its exit code is not the run's. */
export function separateClosingLine<R extends { code: number | null; stderr: string }>(
  result: R,
): R & { closingLine?: string } {
  const closing = lastClosingLine(result.stderr);
  if (!closing) return result;
  if (result.code !== null && closing.exitCode !== result.code)
    throw new Error(`the closing line says exit ${closing.exitCode}, the run exited ${result.code}: ${closing.line}`);
  return { ...result, stderr: result.stderr.slice(0, -(closing.line.length + 1)), closingLine: closing.line };
}
