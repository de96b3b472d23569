/**
 * `b2bctl api -o table` on a terminal of 100 and 60 columns, checked on the rendered screen (a user test): one long text
 * cell was kept whole and the document and credit columns hidden instead. Now the widest cells are cut with `…`
 * first, and only then columns are left out from the right, named on stderr.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { renderedScreen, wrappedLineCount } from '../../support/rendered-screen.js';
import { answerJsonText, useScriptedPlatform } from '../../support/scripted-platform.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const platform = useScriptedPlatform();
const { routes } = platform;
afterAll(removeTemporaryFolders);

const customers = [0, 1, 2].map((index) => ({
  id: index,
  customerName: `Distribuidora de Materiais de Construção Irmãos Assunção Ltda - Filial ${index} Zona Norte`,
  document: '11.222.333/0001-81',
  city: 'São Paulo',
  state: 'SP',
  limit: 1000 + index,
  used: 10 * index,
}));

function onTerminal(columns: number) {
  routes['GET /v1/customers'] = answerJsonText(200, JSON.stringify(customers));
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  return runCommandLine(['api', '/v1/customers', '-o', 'table'], {
    configDir: freshConfigDir(),
    env,
    tty: { stdout: true, stderr: true },
    columns,
  });
}

describe('api -o table fitted to the terminal', () => {
  it('100 columns: every column shown, the long name cut with …, its document whole', async () => {
    const result = await onTerminal(100);
    expect(result.code).toBe(0);
    expect(await wrappedLineCount(result.stdout, 100)).toBe(0);
    const screen = await renderedScreen(result.stdout, 100);
    expect(screen[0]).toMatch(/^ID\s+CUSTOMER_NAME\s+DOCUMENT\s+CITY\s+STATE\s+LIMIT\s+USED$/);
    expect(screen[1]).toMatch(
      /^0\s+Distribuidora de Materiais de Construç\S*.*…\s+11\.222\.333\/0001-81\s+São Paulo\s+SP\s+1000\s+0$/,
    );
    expect(result.stderr).not.toContain('hidden');
  });

  it('60 columns: the first columns kept (the name cut), the rightmost left out and named', async () => {
    const result = await onTerminal(60);
    expect(result.code).toBe(0);
    expect(await wrappedLineCount(result.stdout, 60)).toBe(0);
    const screen = await renderedScreen(result.stdout, 60);
    expect(screen[0]).toMatch(/^ID\s+CUSTOMER_NAME\s+DOCUMENT\s+CITY$/);
    expect(screen[1]).toMatch(/^0\s+Distribuidora de Materia\S*…\s+11\.222\.333\/0001-81\s+São Paulo$/);
    expect(result.stderr.replaceAll('\n', ' ')).toContain('STATE, LIMIT and USED hidden to fit 60 columns');
  });
});
