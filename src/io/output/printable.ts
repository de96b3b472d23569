import { nonPrintable } from '../../lib/non-printable.js';
import { printable } from '../../lib/printable.js';

/**
 * A log line's text as a terminal may show it: as printable(), but its line breaks and tabs kept, since a message of
 * several lines is the logger's own. The words a platform, an ERP or a file put in a message (a refusal's reason,
 * an error page) cannot clear the screen, move the cursor over b2bctl's own lines or set the window's title.
 */
export function printableLines(text: string): string {
  return text.replace(nonPrintable, (character) =>
    character === '\n' || character === '\t' ? character : printable(character),
  );
}
