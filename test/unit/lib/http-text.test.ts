import { describe, expect, it } from 'vitest';
import { httpDate, httpDateOf } from '../../../src/lib/http-text.js';

describe('httpDate: only the HTTP-date forms of RFC 9110', () => {
  it.each([
    ['Tue, 01 Dec 2026 02:24:13 GMT', '2026-12-01T02:24:13.000Z'],
    ['Tuesday, 01-Dec-26 02:24:13 GMT', '2026-12-01T02:24:13.000Z'],
    ['Tue Dec  1 02:24:13 2026', '2026-12-01T02:24:13.000Z'],
  ])('reads %s', (text, iso) => {
    expect(new Date(httpDate(text) as number).toISOString()).toBe(iso);
  });

  it.each(['01/12/2026 02:24:13', 'abc 1', '2026-12-01T02:24:13Z', 'Tue, 01 Dec 2026 02:24:13 +0000', '', 'soon'])(
    'reads no date from %j (which Date.parse may read as another day)',
    (text) => {
      expect(httpDate(text)).toBeUndefined();
    },
  );
});

describe('httpDateOf: a Date header', () => {
  it('an HTTP date is its instant; the first of a repeated header is read', () => {
    expect(httpDateOf('Tue, 01 Dec 2026 02:24:13 GMT')).toEqual({ ms: Date.parse('2026-12-01T02:24:13Z') });
    expect(httpDateOf(['Tue, 01 Dec 2026 02:24:13 GMT', 'abc 1'])).toEqual({ ms: Date.parse('2026-12-01T02:24:13Z') });
  });

  it('a header that is no HTTP date is given back as it came; an absent or empty one is none', () => {
    expect(httpDateOf('01/12/2026 02:24:13')).toEqual({ unreadable: '01/12/2026 02:24:13' });
    expect(httpDateOf('abc 1')).toEqual({ unreadable: 'abc 1' });
    expect(httpDateOf(undefined)).toBeUndefined();
    expect(httpDateOf('  ')).toBeUndefined();
  });
});
