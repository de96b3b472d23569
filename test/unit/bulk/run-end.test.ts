import { describe, expect, it } from 'vitest';
import { runEnd, type SendingFacts } from '../../../src/bulk/run-end.js';
import { ProxyPageError } from '../../../src/platform/answers/shapes.js';
import {
  AuthError,
  ExitCode,
  InterruptedError,
  OutputError,
  PlatformError,
  UnavailableError,
} from '../../../src/base/errors.js';

const htmlPage = new ProxyPageError({ method: 'POST', url: 'https://x.example/v1/customer' }, 200, '<html></html>');

const quiet: SendingFacts = {
  interrupted: false,
  stoppedBy: undefined,
  answeredBatches: 4,
  unavailableBatches: 0,
  unavailableRecords: 0,
  failures: 0,
};

describe('runEnd: how a bulk run that began sending ends', () => {
  it.each<[string, Partial<SendingFacts>, string, ExitCode]>([
    ['every batch answered, nothing failed', {}, 'done', ExitCode.ok],
    ['some records rejected or failed', { failures: 3 }, 'some records failed', ExitCode.someRecordsFailed],
    ['Ctrl-C', { interrupted: true }, 'interrupted', ExitCode.interrupted],
    ['Ctrl-C with failures: interrupted wins', { interrupted: true, failures: 2 }, 'interrupted', ExitCode.interrupted],
    ['Ctrl-C with records left unanswered', { interrupted: true, unanswered: 5 }, 'interrupted', ExitCode.interrupted],
    // The signal came after the last answer: the run is done, with no resume to offer for nothing.
    ['Ctrl-C once every record was answered', { interrupted: true, unanswered: 0 }, 'done', ExitCode.ok],
    [
      'Ctrl-C once every record was answered, some failed',
      { interrupted: true, unanswered: 0, failures: 2 },
      'some records failed',
      ExitCode.someRecordsFailed,
    ],
    [
      'every batch lost to unavailability',
      { answeredBatches: 0, unavailableBatches: 2, failures: 10 },
      'platform unavailable throughout',
      ExitCode.unavailable,
    ],
    [
      'some batches lost, some answered',
      { answeredBatches: 1, unavailableBatches: 2, failures: 10 },
      'some records failed',
      ExitCode.someRecordsFailed,
    ],
    [
      'every batch lost, but Ctrl-C came first',
      { answeredBatches: 0, unavailableBatches: 1, interrupted: true },
      'interrupted',
      ExitCode.interrupted,
    ],
    [
      'the report became unwritable',
      { stoppedBy: new OutputError('disk full'), failures: 1 },
      'stopped: report not writable',
      ExitCode.interrupted,
    ],
    [
      'the platform went away for batches in a row',
      { stoppedBy: new UnavailableError('down'), interrupted: true },
      'stopped: platform unavailable',
      ExitCode.unavailable,
    ],
    // Refused credentials leave records unsent: the line to log in goes with the line to resume.
    [
      'refused credentials',
      { stoppedBy: new AuthError('no'), unanswered: 5 },
      'stopped: credentials refused',
      ExitCode.authFailed,
    ],
    [
      'refused credentials, records uncounted',
      { stoppedBy: new AuthError('no') },
      'stopped: credentials refused',
      ExitCode.authFailed,
    ],
    ['refused credentials, every record answered', { stoppedBy: new AuthError('no'), unanswered: 0 }, 'stopped', 77],
    [
      'a 403',
      { stoppedBy: new PlatformError(403, { method: 'PUT', url: 'https://x.example/stock' }, {}), unanswered: 1 },
      'stopped: credentials refused',
      ExitCode.authFailed,
    ],
    // A portal's page to a write: its records unknown, none unsent (each was in flight); the resume settles them.
    [
      'an HTML page to writes in flight, every record answered unknown',
      { stoppedBy: htmlPage, unanswered: 0, unknown: 2 },
      'stopped: records left',
      ExitCode.unavailable,
    ],
    [
      'an HTML page to writes, records left unsent',
      { stoppedBy: htmlPage, unanswered: 3 },
      'stopped: records left',
      69,
    ],
    ['an unexpected error', { stoppedBy: new TypeError('bug') }, 'stopped', ExitCode.someRecordsFailed],
    ['an interruption thrown', { stoppedBy: new InterruptedError('x') }, 'stopped', ExitCode.interrupted],
  ])('%s', (_name, facts, kind, exitCode) => {
    expect(runEnd({ ...quiet, ...facts })).toMatchObject({ kind, exitCode });
  });
});
