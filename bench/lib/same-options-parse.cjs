// The fair floor for reading a CSV: csv-parse with the options b2bctl itself uses (src/io/input/csv-rows.ts), over
// the decoded text stream, counting rows. Run as its own process so it is timed whole, like the CLI.
// Usage: node same-options-parse.cjs FILE DELIMITER
const { parse } = require('csv-parse');
const { createReadStream } = require('node:fs');

const [file, delimiter] = process.argv.slice(2);
let rows = 0;
createReadStream(file, { encoding: 'utf8' })
  .pipe(
    parse({
      delimiter: delimiter === 'tab' ? '\t' : delimiter,
      bom: true,
      relax_quotes: true,
      relax_column_count: true,
      skip_empty_lines: true,
    }),
  )
  .on('data', () => rows++)
  .on('end', () => console.log(rows - 1));
