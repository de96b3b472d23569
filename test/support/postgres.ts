// One implementation for the tests and the benchmarks (bench/webhooks.mjs).
export { postgresMissing, startPostgres, type TestPostgres } from '../../bench/lib/postgres.mjs';
