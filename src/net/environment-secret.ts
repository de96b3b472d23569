import { UsageError } from '../base/errors.js';
import { credentialCharacterProblem, withoutLineEnd } from '../domain/bearer-token.js';

/** Where a secret may be read from: the process's environment, or a test's. */
export type SecretEnvironment = Readonly<Record<string, string | undefined>>;

/**
 * A secret given in an environment variable, as it is sent; undefined when the variable is unset or empty. The one
 * policy for every such secret (the password, the tax callback's token and password, the client secrets, the ERP's
 * forward credentials), so that no command logs in with a value another refuses or sends raw: one line end is
 * dropped (`VAR="$(cat file)"` keeps a Windows file's CR), and any other control character is refused before
 * anything is sent (exit 2, naming the variable), being a file's second line that the other side would refuse as a
 * wrong credential, or, in a header, a request split in two. `sentInHeader`: the secret goes as written in a header
 * (a Bearer token), where whatever no header can carry is refused too.
 */
export function secretFromEnvironment(
  env: SecretEnvironment,
  name: string,
  options: { sentInHeader?: boolean } = {},
): string | undefined {
  const secret = withoutLineEnd(env[name] ?? '');
  if (secret === '') return undefined;
  const problem = credentialCharacterProblem(secret, name, options.sentInHeader ?? false);
  if (problem !== undefined) throw new UsageError(problem);
  return secret;
}
