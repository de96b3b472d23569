// Lists the functions of src/ longer than a limit, by lines from their first to their last (comments and blank
// lines included, as ESLint's max-lines-per-function counts them). Run: node scripts/function-lengths.mjs [limit]
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSync } from 'oxc-parser';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Every function of a TypeScript source with its name, first line and length in lines. */
export function functionsOf(file, source) {
  const { program, errors } = parseSync(file, source);
  if (errors.length > 0) throw new Error(`${file}: ${errors[0].message}`);
  const lineStarts = [0];
  for (let index = source.indexOf('\n'); index >= 0; index = source.indexOf('\n', index + 1))
    lineStarts.push(index + 1);
  const lineOf = (offset) => {
    let low = 0;
    let high = lineStarts.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (lineStarts[middle] <= offset) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  const found = [];
  const visit = (node, name) => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const child of node) visit(child, name);
      return;
    }
    if (typeof node.type !== 'string') return;
    if (isFunction(node) && node.body) {
      const first = lineOf(node.start);
      found.push({
        name: node.id?.name ?? name ?? `<anonymous>`,
        line: first,
        lines: lineOf(node.end - 1) - first + 1,
      });
    }
    for (const [key, child] of Object.entries(node)) {
      if (key === 'type' || key === 'start' || key === 'end') continue;
      visit(child, nameFor(node, key) ?? (isFunction(node) ? undefined : name));
    }
  };
  visit(program, undefined);
  return found;
}

const functionTypes = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);
const isFunction = (node) => functionTypes.has(node.type);

const keyName = (keyNode) => keyNode?.name ?? keyNode?.value;

/** The name a function takes from where it stands: `const name = () => …`, a method, a property. */
function nameFor(node, key) {
  if (node.type === 'VariableDeclarator' && key === 'init') return keyName(node.id);
  if (
    (node.type === 'MethodDefinition' || node.type === 'Property' || node.type === 'PropertyDefinition') &&
    key === 'value'
  )
    return keyName(node.key);
  if (node.type === 'AssignmentExpression' && key === 'right') return node.left.property?.name ?? node.left.name;
  return undefined;
}

/** The .ts files under a folder, as paths relative to the repository. */
export function sourceFiles(folder = join(root, 'src')) {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .toSorted();
}

/** `file:line name (N lines)` of every function of src/ longer than `limit` lines. */
export function longFunctions(limit) {
  const long = [];
  for (const file of sourceFiles())
    for (const fn of functionsOf(file, readFileSync(join(root, file), 'utf8')))
      if (fn.lines > limit) long.push({ file, ...fn });
  return long;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const limit = Number(process.argv[2] ?? 80);
  for (const fn of longFunctions(limit)) console.log(`${fn.file}:${fn.line} ${fn.name} (${fn.lines} lines)`);
}
