/**
 * The secrets an `--exec` command line holds itself, which the receiver warns of at start (they sit in its argv, in
 * `ps`) and masks in the command's output: the shell forms a user test found missed, and a command substitution,
 * which puts only its text in the process list.
 */
import { describe, expect, it } from 'vitest';
import { secretAssignmentsIn, secretsGivenTo } from '../../../src/webhook/exec-environment.js';

const given = (command: string) => secretsGivenTo({ parent: {}, names: [] }, command);

describe('--exec: the secrets its command line holds', () => {
  it.each([
    [
      'variables before the program',
      'ERP_SENHA=SenhaSecreta99 ERP_PASS=PassSecret77 ./imp.sh',
      ['ERP_SENHA', 'ERP_PASS'],
    ],
    ['a variable of a well-known program', 'PGPASSWORD=SenhaSecreta99 psql -h db', ['PGPASSWORD']],
    ['after env', 'env ERP_SENHA=SenhaSecreta99 ./imp.sh', ['ERP_SENHA']],
    ['exported, then the program', 'export ERP_SENHA=SenhaSecreta99; ./imp.sh', ['ERP_SENHA']],
    ['an option joined to its value', './imp.sh --password=SenhaSecreta99', ['--password=…']],
    ['an option and the next word', './imp.sh --api-key SenhaSecreta99', ['--api-key=…']],
    ["curl's -u user:password", 'curl -s -u erp:SenhaSecreta99 http://127.0.0.1:9/ --data-binary @-', ['-u user:…']],
    ['a URL with a credential', 'curl -s https://erp:SenhaSecreta99@erp.example/in', ['https://***@erp.example/in']],
  ])('%s: named', (_case, command, names) => {
    expect(secretAssignmentsIn(command)).toEqual(names);
    expect(given(command)).toContain('SenhaSecreta99');
  });

  it.each([
    ['a command substitution', 'ERP_TOKEN=$(cat /etc/erp/token) ./imp.sh'],
    ['backquotes', 'ERP_TOKEN=`cat /etc/erp/token` ./imp.sh'],
    ['a variable of the environment', './imp.sh --password="$ERP_PASSWORD"'],
    ['curl reading the pair from the environment', 'curl -u "erp:${ERP_TOKEN}" http://127.0.0.1:9/'],
    ['nothing secret', 'LANG=C ./import.sh --mode full -u erp'],
  ])('%s: not named', (_case, command) => {
    expect(secretAssignmentsIn(command)).toEqual([]);
  });
});
