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
export function branchNotLinked(branch: string, method: string, url: string, platformWords?: string): AuthError {
  const said = platformWords ? `: ${platformWords}` : '';
  return new AuthError(
    `Branch "${branch}" is not linked to this token's head office (HTTP 403 on ${method} ${url}${said}); use a branch of this head office, or log in as that branch's head office.`,
  );
}

/** A route's segments, without its query string or a final slash. */
function segmentsOf(route: string): string[] {
  return (route.split('?')[0] ?? '').replace(/\/+$/, '').split('/');
}

/**
 * The branch a path written out in full names, where a route template holds `{branch}` as a segment: against
 * `/v1/branches/{branch}/contracts`, `/v1/branches/0099/contracts` names branch 0099, as the template filled with it
 * would. `:name` stands for any one segment; a query string and a final slash are ignored. Undefined when the template
 * has no `{branch}` segment or the path is another route.
 */
export function branchInRoute(template: string, path: string): string | undefined {
  const wanted = segmentsOf(template);
  const given = segmentsOf(path);
  if (!wanted.includes(branchPlaceholder) || wanted.length !== given.length) return undefined;
  let branch: string | undefined;
  for (const [index, segment] of wanted.entries()) {
    const actual = given[index] ?? '';
    if (segment === branchPlaceholder) branch = actual;
    else if (/^:\w+$/.test(segment) ? actual === '' : segment !== actual) return undefined;
  }
  if (!branch) return undefined;
  try {
    return decodeURIComponent(branch);
  } catch {
    return branch;
  }
}
