/**
 * The words people write for yes and no, and for a customer's state: read in every input file's cells
 * (io/input/cell-values.ts) and in the platform's answers (a success flag `"sucesso": "não"`, a record's
 * `"ativo": "S"`), so that b2bctl takes the same words either way. Pure.
 */

const trueWords = new Set(['true', '1', 'sim', 'yes', 's', 'y', 'verdadeiro']);
const falseWords = new Set(['false', '0', 'não', 'nao', 'no', 'n', 'falso']);

/** `true/false/1/0/sim/não/yes/no` (any case) as a boolean; undefined when the text is none of them. */
export function parseBoolean(text: string): boolean | undefined {
  const word = text.trim().toLowerCase();
  if (trueWords.has(word)) return true;
  if (falseWords.has(word)) return false;
  return undefined;
}

/**
 * A customer's state as people write it: `active`/`inactive`, `ativo`/`inativo` (any case, as an ERP's export says
 * it), an ERP's credit block (`bloqueado` is inactive, `liberado` and `desbloqueado` active), `activate`/
 * `deactivate`, `on`/`off`, or any of parseBoolean's words; undefined for anything else.
 */
export function parseActiveState(text: string): boolean | undefined {
  const word = text.trim().toLowerCase();
  if (activeWords.has(word)) return true;
  if (inactiveWords.has(word)) return false;
  return parseBoolean(word);
}

const activeWords = new Set([
  'active',
  'activate',
  'ativo',
  'ativa',
  'ativado',
  'ativada',
  'liberado',
  'liberada',
  'desbloqueado',
  'desbloqueada',
  'on',
]);
const inactiveWords = new Set([
  'inactive',
  'deactivate',
  'inativo',
  'inativa',
  'desativado',
  'desativada',
  'bloqueado',
  'bloqueada',
  'off',
]);
