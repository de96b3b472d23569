import { describe, expect, it } from 'vitest';
import { CommandOutput, failureWithOutput } from '../../../src/webhook/command-output.js';

describe("an --exec command's output", () => {
  it('keeps the last ten lines, each one line of at most 300 characters, and counts the others', () => {
    const output = new CommandOutput();
    for (let line = 1; line <= 12; line++) output.add(`line ${line}\r\n`);
    output.add('progress 50%\rprogress 100%\u001b[0m');
    output.add(` ${'x'.repeat(400)}`);
    const { lines, dropped } = output.finish();
    expect(dropped).toBe(3);
    expect(lines.slice(0, 2)).toEqual(['line 4', 'line 5']);
    // A progress bar's \r and a colour's escape are spaces: the log line stays one line.
    const shown = 'progress 50% progress 100% [0m ';
    expect(lines.at(-1)).toBe(`${shown}${'x'.repeat(300 - shown.length)}…`);
  });

  it('masks a secret the command broke over two lines, LF or CRLF (a user test)', () => {
    const secret = 'Tok/En?>>Secret%2=abc';
    for (const lineBreak of ['\n', '\r\n']) {
      const output = new CommandOutput([secret]);
      output.add(`x ${secret.slice(0, 10)}${lineBreak}${secret.slice(10)} y${lineBreak}`);
      const failure = failureWithOutput('exit code 65', output.finish().lines);
      expect(failure).toBe('exit code 65: x [redacted] y');
    }
  });

  it('ends a failure with its last three lines, or says only the failure when it printed nothing', () => {
    expect(failureWithOutput('exit code 65', ['reading', 'row 4', 'bad record: CNPJ invalid', 'done'])).toBe(
      'exit code 65: row 4 | bad record: CNPJ invalid | done',
    );
    expect(failureWithOutput('exit code 3', [])).toBe('exit code 3');
  });
});
