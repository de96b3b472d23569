/**
 * Shows the cursor and turns line wrapping back on: what a shell needs after b2bctl drew on its terminal (a
 * progress bar, a prompt that hides the cursor), however the drawing ends or is suspended.
 */
export const restoreTerminal = '\x1b[?25h\x1b[?7h';
