/** CEP (Brazilian ZIP code): 8 digits, written NNNNN-NNN. Pure. */

export type CepCheck = { ok: true; cep: string } | { ok: false; reason: string };

/** Accepts `NNNNN-NNN` or 8 digits (surrounding spaces ignored) and answers the `NNNNN-NNN` form. */
export function normalizeCep(raw: string): CepCheck {
  const text = raw.trim();
  const match = /^(\d{5})-?(\d{3})$/.exec(text);
  if (match) return { ok: true, cep: `${match[1]}-${match[2]}` };
  // Excel reads 01310100 as a number and saves 1310100: the CEP of every São Paulo state address.
  if (/^\d{7}$/.test(text))
    return {
      ok: false,
      reason: '7 digits: a leading zero was probably lost in a spreadsheet; store the column as text',
    };
  if (text === '') return { ok: false, reason: 'empty' };
  return { ok: false, reason: 'a CEP has 8 digits, written NNNNN-NNN or NNNNNNNN' };
}
