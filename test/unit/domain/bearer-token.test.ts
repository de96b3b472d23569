import { describe, expect, it } from 'vitest';
import {
  bearerTokenText,
  controlCharacterIn,
  credentialCharacterProblem,
  unsendableTokenCharacter,
} from '../../../src/domain/bearer-token.js';

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

describe('a credential sent encoded (a Basic pair, a client secret in a body)', () => {
  it.each([
    ['a line feed (a second line)', 'usr:pw\nsecond', 'a line feed (LF)'],
    ['a carriage return (a Windows line end)', 'usr:pw\r', 'a carriage return (CR)'],
    ['NUL', 'pw\u0000', 'the control character U+0000'],
    ['DEL', 'pw\u007f', 'the control character U+007F'],
  ])('names its first control character: %s', (_case, credential, named) => {
    expect(controlCharacterIn(credential)).toBe(named);
  });

  it.each([
    ['a tab', 'pw\tpart'],
    ['characters past Latin-1, which base64 carries', 'senha-\u20ac-\u{1f600}'],
  ])('lets through the rest: %s', (_case, credential) => {
    expect(controlCharacterIn(credential)).toBeUndefined();
  });

  it('says where it came from, and why it cannot be sent, in one line', () => {
    expect(credentialCharacterProblem('tok\n', 'B2BCTL_WEBHOOK_FORWARD_TOKEN', true)).toBe(
      'B2BCTL_WEBHOOK_FORWARD_TOKEN holds a line feed (LF), which no HTTP header can carry: give the credential alone, on one line.',
    );
    expect(credentialCharacterProblem('usr:pw\r', 'B2BCTL_TAX_FORWARD_BASIC', false)).toBe(
      'B2BCTL_TAX_FORWARD_BASIC holds a carriage return (CR), which no credential is made of: give the credential alone, on one line.',
    );
    expect(credentialCharacterProblem('usr:senha-\u20ac', 'B2BCTL_TAX_FORWARD_BASIC', false)).toBeUndefined();
    expect(credentialCharacterProblem('tok-\u20ac', 'B2BCTL_TAX_TOKEN', true)).toBe(
      'B2BCTL_TAX_TOKEN holds the character U+20AC, which no HTTP header can carry: give the credential alone, on one line.',
    );
  });
});
