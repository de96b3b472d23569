/** A command's standard streams and whether each is a terminal: what the context hands every command. */
export interface IOStreams {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  isStdoutTTY: boolean;
  isStderrTTY: boolean;
  isStdinTTY: boolean;
}

/** Asks a person at a terminal (the context's `prompter`, built only when a command asks). */
export interface Prompter {
  input(message: string, defaultValue?: string): Promise<string>;
  password(message: string): Promise<string>;
  /** One of `choices` (their `value`), the first one highlighted. */
  select(message: string, choices: readonly { name: string; value: string }[]): Promise<string>;
}
