import type { Context } from '../../context.js';

/** B2BCTL_TOKEN outranks the profile's token: a login or logout that leaves it set changes nothing that is sent. */
export function warnOfTokenInEnvironment(context: Context): void {
  if (context.env.B2BCTL_TOKEN)
    context.log.warn(
      "B2BCTL_TOKEN is set in this shell and outranks the profile's token: commands here send it, not the profile's, until you unset B2BCTL_TOKEN.",
    );
}
