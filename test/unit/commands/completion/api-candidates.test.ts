/** Completion of `b2bctl api`: the route paths for PATH, the methods for -X, the flags. */
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../../src/cli/program.js';
import { completionCandidates } from '../../../../src/commands/completion/candidates.js';

const root = await buildProgram(async () => {}, ['node', 'b2bctl']);
const routes = ['/sellerModule/listSellers', '/v1/contracts', '/v1/quotes/pending', '/v1/branches/{branch}/contracts'];
const complete = (...words: string[]) =>
  completionCandidates({ root, words, profileNames: () => [], routePaths: () => routes });

describe('completion of b2bctl api', () => {
  it.each([
    [['api', ''], routes],
    [
      ['api', '/v1/'],
      ['/v1/contracts', '/v1/quotes/pending', '/v1/branches/{branch}/contracts'],
    ],
    [['api', '--paginate', '/v1/q'], ['/v1/quotes/pending']],
    [['api', '/v1/contracts', '/v1/'], []],
    [
      ['api', '-X', ''],
      ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'],
    ],
    [
      ['api', '--method', 'P'],
      ['POST', 'PUT', 'PATCH'],
    ],
    [
      ['api', '/v1/contracts', '--pa'],
      ['--paginate', '--page-size'],
    ],
    [['api', '/v1/contracts', '--br'], ['--branch']],
  ])('%j → %j', (words, expected) => {
    expect(complete(...words)).toEqual(expected);
  });
});
