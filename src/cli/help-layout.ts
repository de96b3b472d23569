import { type Command, Help } from 'commander';

/** A description column narrower than this is no longer read as prose: the descriptions go under their flags. */
const narrowestDescriptionColumn = 24;
/** Where a description under its flag starts: past the flag's own indent, as gh and git lay out a narrow help. */
const descriptionUnderFlagIndent = 6;
/** The two spaces commander puts before each flag and between a flag and its description. */
const itemIndent = 2;
const usageTitle = 'Usage: ';

/**
 * How `--help` is laid out, for every command (subcommands inherit it). Commander stops wrapping below its
 * minimum width and prints each description on one line, which a narrow terminal then cuts mid-word: here text
 * wraps at word boundaries at any width, and when the column beside the flags would be too narrow each
 * description goes on its own lines under its flag.
 */
export const helpLayout: Partial<Help> = {
  showGlobalOptions: true,
  // Our formatItem decides when a column is too narrow; commander's floor (40) would leave text unwrapped.
  minWidthToWrap: 1,
  formatItem(this: Help, term: string, termWidth: number, description: string, helper: Help): string {
    const width = helper.helpWidth ?? 80;
    const column = width - termWidth - 2 * itemIndent;
    if (description === '' || column >= narrowestDescriptionColumn) {
      return Help.prototype.formatItem.call(this, term, termWidth, description, helper);
    }
    const lines = helper.preformatted(description)
      ? description
      : helper.boxWrap(description, width - descriptionUnderFlagIndent);
    const indent = ' '.repeat(descriptionUnderFlagIndent);
    return [' '.repeat(itemIndent) + term, ...lines.split('\n').map((line) => indent + line)].join('\n');
  },
  formatHelp(this: Help, command: Command, helper: Help): string {
    const [usage = '', ...rest] = Help.prototype.formatHelp.call(this, command, helper).split('\n');
    const width = helper.helpWidth ?? 80;
    if (helper.displayWidth(usage) <= width) return [usage, ...rest].join('\n');
    // The usage line is one too: wrapped under itself, past "Usage: ".
    const wrapped = helper
      .boxWrap(usage, width - usageTitle.length)
      .split('\n')
      .map((line, index) => (index === 0 ? line : ' '.repeat(usageTitle.length) + line));
    return [...wrapped, ...rest].join('\n');
  },
};
