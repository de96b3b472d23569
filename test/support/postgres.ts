// One implementation for the tests and the benchmarks (bench/webhooks.mjs).
export { postgresBin, startPostgres, type TestPostgres } from '../../bench/lib/postgres.mjs';
