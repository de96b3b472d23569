import { describe, expect, it } from 'vitest';
import {
  commandShownSafely,
  targetShownSafely,
  urlShownSafely,
  urlsShownSafely,
} from '../../../src/lib/shown-target.js';

describe('urlShownSafely', () => {
  it.each([
    ['http://erp.internal/hooks', 'http://erp.internal/hooks'],
    ['https://user:pass@erp.internal:8443/hooks', 'https://***@erp.internal:8443/hooks'],
    ['http://token@erp/hooks', 'http://***@erp/hooks'],
    ['http://erp/hooks?api_key=k1&tenant=a', 'http://erp/hooks?api_key=***&tenant=***'],
    ['http://erp/hooks#frag-secret', 'http://erp/hooks'],
    ['not a url?key=s3cret', 'not a url'],
    ['erp-user:s3cret@erp/hooks', '***@erp/hooks'],
    ['http://u:pa/ss@erp/hooks', 'http://***@erp/hooks'],
  ])('%s → %s', (given, shown) => expect(urlShownSafely(given)).toBe(shown));
});

describe('commandShownSafely', () => {
  it.each([
    ['./import.sh', './import.sh'],
    ['/opt/erp/import.sh --db-password=s3cret', '/opt/erp/import.sh …'],
    ['DB_PASSWORD=s3cret TOKEN="a b" /opt/erp/import.sh', '/opt/erp/import.sh'],
    ["'/opt/my erp/import.sh' s3cret", '/opt/my erp/import.sh …'],
    ['"/opt/my\\"erp/run" s3cret', '/opt/my"erp/run …'],
    ['import\\ event.sh', 'import event.sh'],
    ['psql postgres://u:s3cret@db/x < event.json', 'psql …'],
    ['run.sh;echo s3cret', 'run.sh …'],
    ['SECRET=x', '***'],
  ])('%s → %s', (given, shown) => expect(commandShownSafely(given)).toBe(shown));
});

describe('targetShownSafely', () => {
  it.each([
    ['exec ./import.sh --key=s3cret', 'exec ./import.sh …'],
    ['http://u:s3cret@erp/hook?k=s3cret', 'http://***@erp/hook?k=***'],
    ['fetch orders into /var/lib/inbox/orders', 'fetch orders into /var/lib/inbox/orders'],
  ])('%s → %s', (given, shown) => expect(targetShownSafely(given)).toBe(shown));
});

describe('urlsShownSafely', () => {
  it('shows every URL of a message without its credentials, and leaves the rest', () => {
    expect(
      urlsShownSafely("error: option '--forward-to <url>' argument 'ftp://u:p@10.1.2.3/x?token=t' is invalid."),
    ).toBe("error: option '--forward-to <url>' argument 'ftp://***@10.1.2.3/x?token=***' is invalid.");
    expect(urlsShownSafely('expected one character, or tab')).toBe('expected one character, or tab');
  });
});
