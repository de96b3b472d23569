/** The folder of Debian's PostgreSQL server programs (package `postgresql`), if installed. */
export function postgresBin(): string | undefined;
/** Why the PostgreSQL tests skip, shown in their titles; undefined when they can run. */
export const postgresMissing: string | undefined;
export interface TestPostgres {
  /** A URL to a fresh database of its own. */
  url: string;
  /** The folder of its Unix socket (libpq's `host=/folder`), and its port. */
  socketFolder: string;
  port: number;
  stop(): void;
}
/** A PostgreSQL server of its own, in a temporary folder, on a free loopback port. */
export function startPostgres(): Promise<TestPostgres>;
