import { describe, expect, it } from 'vitest';
import { bearerTokenText, unsendableTokenCharacter } from '../../../src/domain/bearer-token.js';

describe('a token as it goes in an Authorization header', () => {
  it.each([
    ['a trailing line feed', 'TOK-1\n', 'TOK-1'],
    ['a trailing CR LF', 'TOK-1\r\n', 'TOK-1'],
    ['spaces and tabs around it', ' \tTOK-1 \t', 'TOK-1'],
    ['nothing around it', 'TOK-1', 'TOK-1'],
  ])('drops the whitespace around it: %s', (_case, given, sent) => {
    expect(bearerTokenText(given)).toBe(sent);
  });

  it.each([
    ['a carriage return', 'TOK\r\nX: 1', 'a carriage return (CR)'],
    ['a line feed', 'TOK\nrest', 'a line feed (LF)'],
    ['NUL', 'TOK\u0000rest', 'the control character U+0000'],
    ['DEL', 'TOK\u007frest', 'the control character U+007F'],
    ['a character past Latin-1', 'TOK\u20acrest', 'the character U+20AC'],
    ['an emoji', 'TOK\u{1f600}rest', 'the character U+1F600'],
  ])('names the first character no header can carry: %s', (_case, token, named) => {
    expect(unsendableTokenCharacter(token)).toBe(named);
  });

  it.each([
    ['a JWT', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln'],
    ['a tab and a space inside', 'TOK\tpart two'],
    ['Latin-1 bytes', 'TOK\u00e9\u00ff'],
  ])('lets through what a header carries: %s', (_case, token) => {
    expect(unsendableTokenCharacter(token)).toBeUndefined();
  });
});
