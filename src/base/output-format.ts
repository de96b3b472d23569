/** The output formats of `-o`, in a module of their own so the CLI can name them without loading the context. */
export const outputFormats = ['table', 'json', 'ndjson', 'csv'] as const;
export type OutputFormat = (typeof outputFormats)[number];
