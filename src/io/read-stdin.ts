import { withoutLineEnd } from '../domain/bearer-token.js';

/** Reads a whole (small) stream, such as a password or token piped on stdin. */
export async function readAllText(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** A secret piped on stdin, without the newline that `echo` and files end with. */
export async function readSecretFromStdin(stream: NodeJS.ReadableStream): Promise<string> {
  return withoutLineEnd(await readAllText(stream));
}
