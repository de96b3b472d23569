// Writes a stock and price file of N rows with the sandbox's generated SKUs (GEN-0000001 ...), streamed.
// Usage: node scripts/generate-stock.mjs N [FILE] [--excel]   (or npm run -s gen:stock -- N FILE; no FILE: stdout)
//   --excel: as pt-BR Excel saves it (semicolons, decimal commas, CRLF); default: comma CSV, UTF-8, LF.
import { generatorOutput, outputPathFrom } from './generator-output.mjs';

const count = Number(process.argv[2] ?? 1000);
if (!Number.isInteger(count) || count < 0) {
  console.error('usage: node scripts/generate-stock.mjs N [FILE] [--excel]  (no FILE: stdout)');
  process.exit(2);
}
const excel = process.argv.includes('--excel');
const output = generatorOutput(outputPathFrom(process.argv.slice(3)));
const delimiter = excel ? ';' : ',';
const newline = excel ? '\r\n' : '\n';
const money = (cents) => {
  const text = (cents / 100).toFixed(2);
  return excel ? text.replace('.', ',') : text;
};

let buffer = `sku${delimiter}quantity${delimiter}price${delimiter}salePrice${delimiter}warehouse${newline}`;
for (let index = 1; index <= count; index++) {
  const sku = `GEN-${String(index).padStart(7, '0')}`;
  const quantity = (index * 7919) % 5000;
  const priceCents = 500 + ((index * 104729) % 250000);
  const sale = index % 5 === 0 ? money(Math.floor(priceCents * 0.9)) : '';
  buffer += `${sku}${delimiter}${quantity}${delimiter}${money(priceCents)}${delimiter}${sale}${delimiter}${newline}`;
  if (buffer.length > 1 << 16) {
    await output.write(buffer);
    buffer = '';
  }
}
await output.write(buffer);
await output.end();
