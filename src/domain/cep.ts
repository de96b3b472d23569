/** CEP (Brazilian ZIP code): 8 digits, written NNNNN-NNN. Pure. */

export type CepCheck = { ok: true; cep: string } | { ok: false; reason: string };

/** Accepts `NNNNN-NNN` or 8 digits (surrounding spaces ignored) and answers the `NNNNN-NNN` form. */
export function normalizeCep(raw: string): CepCheck {
  const text = raw.trim();
  // Nearly every CEP of an export is already NNNNN-NNN: kept as it is, without a match array and a new string.
  if (isWrittenCep(text)) return { ok: true, cep: text };
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

/** True for exactly NNNNN-NNN (ASCII digits), read by character codes. */
function isWrittenCep(text: string): boolean {
  if (text.length !== 9 || text.charCodeAt(5) !== 45) return false;
  for (let index = 0; index < 9; index++) {
    if (index === 5) continue;
    const code = text.charCodeAt(index);
    if (code < 48 || code > 57) return false;
  }
  return true;
}
