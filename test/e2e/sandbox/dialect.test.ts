import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir, runCli } from '../../support/cli.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

afterAll(() => removeTemporaryFolders());

describe('b2bctl sandbox --dialect', () => {
  it('an unknown dialect is a usage error naming the ones there are; nothing listens', async () => {
    const result = await runCli(['sandbox', '--port', '0', '--dialect', 'soap'], { configDir: freshConfigDir() });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    // commander's refusal of a value outside the choices (which completion offers too).
    expect(result.stderr).toContain(
      "error: option '--dialect <name>' argument 'soap' is invalid. Allowed choices are default, spring, legacy, gateway.",
    );
  });
});
