import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layering rules of src/README.md, checked on the source itself so a move or a quick import cannot quietly
 * undo them: rooms run downhill, and no command group reaches into another.
 */
const sourceRoot = resolve(__dirname, '../../../src');

interface ImportEdge {
  from: string;
  to: string;
  typeOnly: boolean;
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const importPattern =
  /(?:^|\n)\s*(import|export)(\s+type)?[^'";]*?(?:\sfrom\s+)?['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function importsOf(file: string): ImportEdge[] {
  const text = readFileSync(file, 'utf8');
  const edges: ImportEdge[] = [];
  for (const match of text.matchAll(importPattern)) {
    const specifier = match[3] ?? match[4] ?? '';
    const target = resolve(dirname(file), specifier).replace(/\.js$/, '.ts');
    edges.push({ from: rel(file), to: rel(target), typeOnly: match[2] !== undefined });
  }
  return edges;
}

const rel = (path: string): string => relative(sourceRoot, path).split('\\').join('/');

const edges = sourceFiles(sourceRoot).flatMap(importsOf);

/** `commands/customer/create.ts` → `customer`; `commands/login.ts` → `login`. */
function commandGroup(path: string): string | undefined {
  const match = /^commands\/([^/.]+)/.exec(path);
  return match?.[1];
}

const room = (path: string): string => path.split('/')[0]!;

function violations(rule: (edge: ImportEdge) => boolean): string[] {
  return edges.filter(rule).map((edge) => `${edge.from} -> ${edge.to}`);
}

/** An import edge, for the checker's own tests. */
const importEdge = (from: string, to: string): ImportEdge => ({ from, to, typeOnly: true });

/** The graph of rooms: an edge from a folder (or a file at the root) to another that one of its files imports. */
function roomGraph(imports: readonly ImportEdge[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const edge of imports) {
    const [from, to] = [room(edge.from), room(edge.to)];
    if (from !== to && !(graph.get(from) ?? []).includes(to)) graph.set(from, [...(graph.get(from) ?? []), to]);
  }
  return graph;
}

/** Each cycle of a graph, as `a -> b -> a`. */
function cyclesIn(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const cycles: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'visiting');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'visiting') cycles.push([...stack.slice(stack.indexOf(next)), next].join(' -> '));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return cycles;
}

/** A map row's room: `commands/<group>/` → `commands`, `context.ts` → `context.ts`. */
const roomOfRow = (cell: string): string => (/^`([^`/]+)/.exec(cell)?.[1] ?? '').replace(/\/$/, '');

/**
 * The "may import" table of src/README.md, read from the map itself, so the map a newcomer trusts is the rule the
 * test holds: each row's room and the rooms it may import (`everything below`: every room listed after it;
 * `nothing`: none). A file at src/'s root (`context.ts`) is a room of its own.
 */
function mayImportFromMap(): Map<string, Set<string>> {
  const rows = readFileSync(join(sourceRoot, 'README.md'), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => line.split('|').map((cell) => cell.trim()));
  const rooms = rows.map((cells) => roomOfRow(cells[1] ?? ''));
  const allowed = new Map<string, Set<string>>();
  for (const [index, cells] of rows.entries()) {
    const may = cells[3] ?? '';
    const named = may.startsWith('everything below')
      ? rooms.slice(index + 1)
      : [...may.matchAll(/`([^`]+)`/g)].map((match) => (match[1] ?? '').replace(/\/$/, ''));
    allowed.set(rooms[index] ?? '', new Set(named));
  }
  return allowed;
}

describe('source layering', () => {
  it('reads the imports it checks (the walker is not blind)', () => {
    expect(edges.length).toBeGreaterThan(100);
    expect(edges).toContainEqual({ from: 'bulk/send-stage.ts', to: 'platform/pacer.ts', typeOnly: false });
  });

  it('every import between rooms is one the map in src/README.md allows', () => {
    const allowed = mayImportFromMap();
    expect(allowed.get('bulk')).toContain('platform');
    expect(allowed.get('cli')).toContain('base');
    expect(
      violations((edge) => {
        const [from, to] = [room(edge.from), room(edge.to)];
        return from !== to && allowed.get(from)?.has(to) !== true;
      }),
    ).toEqual([]);
  });

  it('domain/ is pure: it imports nothing from cli, platform, io, commands, sandbox or config', () => {
    const forbidden = new Set(['cli', 'platform', 'io', 'commands', 'sandbox', 'config', 'bulk']);
    expect(violations((edge) => room(edge.from) === 'domain' && forbidden.has(room(edge.to)))).toEqual([]);
  });

  it('lib/ utilities import nothing from the application', () => {
    expect(violations((edge) => room(edge.from) === 'lib' && room(edge.to) !== 'lib')).toEqual([]);
  });

  it('the simulator is shipped behind a boundary: only b2bctl sandbox imports sandbox/ (docs/decisions/0020)', () => {
    expect(
      violations(
        (edge) =>
          room(edge.to) === 'sandbox' && room(edge.from) !== 'sandbox' && !edge.from.startsWith('commands/sandbox/'),
      ),
    ).toEqual([]);
  });

  it('sandbox/ never imports commands/', () => {
    expect(violations((edge) => room(edge.from) === 'sandbox' && room(edge.to) === 'commands')).toEqual([]);
  });

  it('only cli/ imports cli/; only cli/ and the command groups import the command kit', () => {
    expect(violations((edge) => room(edge.to) === 'cli' && room(edge.from) !== 'cli')).toEqual([]);
    expect(
      violations(
        (edge) => room(edge.to) === 'command-kit' && !['cli', 'commands', 'command-kit'].includes(room(edge.from)),
      ),
    ).toEqual([]);
  });

  it('no command group imports another command group', () => {
    expect(
      violations((edge) => {
        const from = commandGroup(edge.from);
        const to = commandGroup(edge.to);
        return from !== undefined && to !== undefined && from !== to;
      }),
    ).toEqual([]);
  });

  it('rooms run downhill: no cycle between folders (a file at the root is a room of its own)', () => {
    expect(cyclesIn(roomGraph(edges))).toEqual([]);
  });

  it('the folder check finds a cycle between two rooms, and passes a tree', () => {
    expect(
      cyclesIn(roomGraph([importEdge('config/a.ts', 'platform/b.ts'), importEdge('platform/b.ts', 'config/c.ts')])),
    ).toEqual(['config -> platform -> config']);
    expect(
      cyclesIn(
        roomGraph([importEdge('cli/a.ts', 'commands/x/b.ts'), importEdge('commands/x/b.ts', 'command-kit/c.ts')]),
      ),
    ).toEqual([]);
  });

  it('has no import cycle (type-only imports count: they still tie the modules together)', () => {
    const graph = new Map<string, string[]>();
    for (const edge of edges) graph.set(edge.from, [...(graph.get(edge.from) ?? []), edge.to]);
    expect(cyclesIn(graph)).toEqual([]);
  });
});
