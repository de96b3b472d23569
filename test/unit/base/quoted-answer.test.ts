import { describe, expect, it } from 'vitest';
import { quotedAnswer, quotedJson } from '../../../src/base/quoted-answer.js';

describe('quotedAnswer', () => {
  it.each([
    { name: 'a text over lines', text: 'falhou:\r\n  pedido 1\n\tja existe\n', shown: 'falhou: pedido 1 ja existe' },
    { name: 'control characters', text: 'a\u001b[31mb\u0000c', shown: 'a [31mb c' },
    { name: 'Unicode line separators', text: 'a\u2028b\u2029c\u0085d', shown: 'a b c d' },
    { name: 'JSON on one line, as it came', text: '{"message":"no"}', shown: '{"message":"no"}' },
    {
      name: 'an HTML page: its title, then its words',
      text: '<!DOCTYPE html>\n<html><head><title>Bad\n Gateway</title><style>p{}</style></head>\n<body><h1>502</h1><!-- x --><script>var a=1</script><p>nginx &amp; co&#46;</p></body></html>',
      shown: 'an HTML page ("Bad Gateway"): 502 nginx & co.',
    },
    { name: 'an HTML page with no title', text: '<html><body>down</body></html>', shown: 'an HTML page: down' },
    {
      name: "an XHTML page behind its XML declaration (tinyproxy's, a user test)",
      text: '<?xml version="1.0" encoding="UTF-8" ?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">\n<html>\n<head><title>502 Bad Gateway</title></head>\n<body><h1>Bad Gateway</h1><p>Unable to connect.</p></body></html>',
      shown: 'an HTML page ("502 Bad Gateway"): Bad Gateway Unable to connect.',
    },
  ])('$name', ({ text, shown }) => {
    expect(quotedAnswer(text)).toBe(shown);
  });

  it('cuts a long answer to the length given, and marks the cut', () => {
    expect(quotedAnswer(`${'y'.repeat(30)}\n${'z'.repeat(30)}`, 40)).toBe(`${'y'.repeat(30)} ${'z'.repeat(9)}…`);
  });

  it('leaves a line without breaks as it is', () => {
    expect(quotedAnswer('HTTP 422: ok')).toBe('HTTP 422: ok');
  });
});

describe('quotedJson', () => {
  it('keeps an answer of up to `longest` characters whole, and cuts a longer one to `longest` with its …', () => {
    expect(quotedJson('x'.repeat(120), 120)).toBe('x'.repeat(120));
    expect(quotedJson('x'.repeat(121), 120)).toBe(`${'x'.repeat(119)}…`);
    expect(quotedJson('x'.repeat(121), 120)).toHaveLength(120);
  });
});
