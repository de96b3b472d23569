import { AuthError, UsageError } from '../base/errors.js';

/** `{branch}` in a route template: where a head office names the branch it integrates on behalf of. */
export const branchPlaceholder = '{branch}';

/**
 * The template with `{branch}` filled in, escaped, and the branch it names (undefined when the template has none).
 * `where` names the template in the message when no branch is set; `flag` is the command's own flag, if any.
 */
export function fillBranch(
  template: string,
  branch: string | undefined,
  where: string,
  flag?: string,
): { path: string; branch: string | undefined } {
  if (!template.includes(branchPlaceholder)) return { path: template, branch: undefined };
  if (branch === undefined || branch === '')
    throw new UsageError(
      `${where} names {branch}, and no branch is set: ${flag ? `pass ${flag} CODE, ` : ''}set B2BCTL_BRANCH, or run b2bctl config set branch CODE.`,
    );
  return { path: template.replaceAll(branchPlaceholder, encodeURIComponent(branch)), branch };
}

/** The one line for a 403 on a branch route: the platform refuses branches outside the token's head office. */
export function branchNotLinked(branch: string, method: string, url: string): AuthError {
  return new AuthError(
    `Branch "${branch}" is not linked to this token's head office (HTTP 403 on ${method} ${url}); use a branch of this head office, or log in as that branch's head office.`,
  );
}
