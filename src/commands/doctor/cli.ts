import type { Command } from 'commander';
import type { CommandExamples, Dispatch } from '../../command-kit/command-group.js';
import type { DoctorOptions } from './run.js';

/** `b2bctl doctor [--document DOC] [--password-stdin]`: connection, clock, token and what b2bctl recognises of each route. */
export function register(program: Command, dispatch: Dispatch): void {
  program
    .command('doctor')
    .summary('check the connection to the store: DNS, TLS, clock, token, and what b2bctl recognises of each route')
    .description(
      "Checks, one line each, what a run against the store depends on: the base URL's name and address, the proxy it goes through, TLS and its certificate authority, the clock against the platform's, the token (or a fresh login with --password-stdin), and each route b2bctl uses, whether its answer has a shape b2bctl recognises. Every finding that is wrong names the setting or flag to change. It only reads, except an empty update of the customer given with --document, which changes nothing. Run it after a login, and when a store answers differently from the sandbox.",
    )
    .option(
      '--document <document>',
      'a customer document (CPF/CNPJ) to probe the update route with {}, which changes nothing',
    )
    .option('--password-stdin', 'read the password from stdin to check a fresh login (or set B2BCTL_PASSWORD)')
    .action((options: { document?: string; passwordStdin?: true }, command: Command) =>
      dispatch<DoctorOptions>(command, async () => (await import('./run.js')).run, {
        document: options.document,
        passwordStdin: options.passwordStdin === true,
      }),
    );
}

/** The examples at the end of each command's help, by its path under the root. */
export const examples: CommandExamples = {
  doctor: ['b2bctl doctor', 'b2bctl doctor --profile prod --document 12.345.678/0001-95 -o json > doctor.json'],
};
