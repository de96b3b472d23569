/** Typed errors: every failure that ends a command is one of these, mapped to an exit code in one place. */
import { hideEchoedSecret } from '../lib/secret-values.js';
import { quotedAnswer } from './quoted-answer.js';
import { isStopSignal, signalExitCodes } from './stop-signals.js';

/** Exit codes (docs/output.md, "Exit codes"), after sysexits. */
export const ExitCode = {
  ok: 0,
  someRecordsFailed: 1,
  usage: 2,
  dataInvalid: 65,
  inputMissing: 66,
  unavailable: 69,
  interrupted: 75,
  authFailed: 77,
  /** 128 + SIGHUP, SIGINT, SIGTERM: a signal ended the run at a point where there is nothing to finish (a prompt). */
  endedBySighup: signalExitCodes.SIGHUP,
  endedBySigint: signalExitCodes.SIGINT,
  /** 128 + SIGPIPE, what a shell reports for a writer whose reader closed the pipe. */
  outputClosed: 141,
  endedBySigterm: signalExitCodes.SIGTERM,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export class B2bctlError extends Error {
  readonly exitCode: ExitCode;
  /** A line that closes the log after this error's message (a bulk run's file, store, counts and exit code). */
  closingLine?: { message: string; fields: Readonly<Record<string, unknown>> };
  constructor(message: string, exitCode: ExitCode, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.exitCode = exitCode;
  }
}

/** The command line asks for something impossible: a bad flag value, a missing setting, an unknown key. */
export class UsageError extends B2bctlError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, ExitCode.usage, options);
  }
}

/** The config file cannot be read; the message names the file and the fix. */
export class ConfigError extends B2bctlError {
  readonly file: string;
  constructor(message: string, file: string, options?: { cause?: unknown }) {
    super(message, ExitCode.usage, options);
    this.file = file;
  }
}

/** A record or file of the user's is invalid: nothing was sent. */
export class InputError extends B2bctlError {
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly field: string | undefined;
  constructor(message: string, location: { file?: string; line?: number; field?: string; missing?: boolean } = {}) {
    super(message, location.missing ? ExitCode.inputMissing : ExitCode.dataInvalid);
    this.file = location.file;
    this.line = location.line;
    this.field = location.field;
  }
}

/** Credentials were refused or are missing: the fix is to log in. */
export class AuthError extends B2bctlError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, ExitCode.authFailed, options);
  }
}

/**
 * Refused credentials (a 401 without a login to renew, a 403) met after a write went out whose outcome the refused
 * request was to tell: a customer create whose answer was lost, then the question "is it registered?" refused. The
 * run stops as for any refused login (exit 77), but the record whose write went out is `unknown` with its row
 * (unknownOutcome), never `not sent`: the platform may have applied it (a user test).
 */
export class CredentialsRefusedAfterWriteError extends AuthError {
  /** The report row's message of the record whose write went out. */
  readonly unknownOutcome: string;
  /** The status the write itself was answered with, if any (a 500 after storing); none when its answer was lost. */
  readonly status: number | undefined;

  constructor(message: string, unknownOutcome: string, status: number | undefined, options?: { cause?: unknown }) {
    super(message, options);
    this.unknownOutcome = unknownOutcome;
    this.status = status;
  }
}

/**
 * What stops a bulk run (`stop`, its cause) met after a write went out whose outcome the failed request was to tell: a
 * customer create whose answer was lost, then the question "is it registered?" answered by a proxy's page or a
 * redirect. The record whose write went out is `unknown` with its row (unknownOutcome), never `not sent`, then the run
 * stops as `stop` stops it (a user test).
 */
export class StoppedAfterWriteError extends B2bctlError {
  /** The report row's message of the record whose write went out. */
  readonly unknownOutcome: string;
  /** The status the write itself was answered with, if any (a 500 after storing); none when its answer was lost. */
  readonly status: number | undefined;
  /** The error that stops the run once the row is written. */
  readonly stop: unknown;

  constructor(stop: unknown, unknownOutcome: string, status: number | undefined) {
    super(unknownOutcome, exitCodeOf(stop), { cause: stop });
    this.unknownOutcome = unknownOutcome;
    this.status = status;
    this.stop = stop;
  }
}

/** The platform could not be reached, or kept failing after every retry. */
export class UnavailableError extends B2bctlError {
  /**
   * The time-out (ms) every attempt of the request ran out of, sent and unanswered: the platform was reached, and is
   * slower than b2bctl waits, so a bulk run it stops advises a longer --timeout rather than waiting until it is back.
   */
  readonly timedOutAfterMs: number | undefined;
  /**
   * The HTTP status the platform answered with when it answered at all (a `429` asking to wait longer than b2bctl
   * waits, a `503` that kept coming): the report's `status` cell, which was empty for such rows (a user test). The
   * platform is still unavailable: this says what it answered, not that the request was taken.
   */
  readonly answeredStatus: number | undefined;
  constructor(message: string, options?: { cause?: unknown; timedOutAfterMs?: number; answeredStatus?: number }) {
    super(message, ExitCode.unavailable, options);
    this.timedOutAfterMs = options?.timedOutAfterMs;
    this.answeredStatus = options?.answeredStatus;
  }
}

/**
 * A failure after which we cannot tell whether the platform applied the request (docs/bulk-runs.md). Here, not beside
 * the HTTP client that throws it, so a command that checks for it does not load undici before it sends anything.
 */
export class AmbiguousRequestError extends UnavailableError {
  /** The status the platform answered when an answer came that cannot be read (a 2xx in a coding b2bctl cannot decode). */
  readonly status: number | undefined;
  constructor(
    message: string,
    options?: { cause?: unknown; status?: number; timedOutAfterMs?: number; answeredStatus?: number },
  ) {
    super(message, options);
    this.status = options?.status;
  }
}

/**
 * A request answered a passing failure (a 429, 502, 503 or 504) on every attempt: the platform is unavailable.
 * `status` is the last answer's, for a caller that tells a 5xx, which may come after the work was done, from a 429.
 */
export class KeptFailingError extends UnavailableError {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message, { answeredStatus: status });
    this.status = status;
  }
}

/**
 * The platform refused every request with 429 for longer than b2bctl waits out a platform that accepts nothing
 * (src/platform/pacer.ts): the run stops at once, rather than each request spending its own count of 429s in turn.
 */
export class ThrottledTooLongError extends UnavailableError {}

/** The run was stopped by a signal; the message says how to resume. */
export class InterruptedError extends B2bctlError {
  constructor(message: string) {
    super(message, ExitCode.interrupted);
  }
}

/**
 * A write interrupted after it was written on its connection, its answer never read: the platform may have applied it
 * (as after a 502), so it is not to be sent again blindly. Exit 75, as any interruption. `interrupted` says what was
 * stopped (`Interrupted (SIGTERM) during POST …, after the request was sent`); `advice` what to do before sending it
 * again, which a command that knows better (an order move reads the order first) gives.
 */
export class InterruptedAfterSendingError extends InterruptedError {
  readonly interrupted: string;
  constructor(interrupted: string, advice = 'check whether it did before sending it again') {
    super(`${interrupted}: the platform may have applied it; ${advice}.`);
    this.interrupted = interrupted;
  }
}

/**
 * A bulk run's request that had not started when the run was interrupted (waiting for its turn under --rate, or
 * for the orders read before it): not sent, so nothing of it reached the platform, and its record stays unsent for
 * the resume. Ctrl-C lets the requests that went out finish; it starts no other.
 */
export class NothingSentError extends B2bctlError {
  constructor(message: string) {
    super(message, ExitCode.interrupted);
  }
}

/** The reader of stdout closed it early (`| head`): the message says what was written and where the next run starts. */
export class OutputClosedError extends B2bctlError {
  constructor(message: string) {
    super(message, ExitCode.outputClosed);
  }
}

/** A signal (SIGINT, SIGTERM, SIGHUP) ended a run that had nothing to finish: exit 128 + the signal, as a shell expects. */
export class SignalledError extends B2bctlError {
  constructor(message: string, signal: string | undefined) {
    super(message, isStopSignal(signal) ? signalExitCodes[signal] : ExitCode.endedBySigint);
  }
}

/** A report or errors file could not be written mid-run: the run stopped cleanly and can be resumed. */
export class OutputError extends B2bctlError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, ExitCode.interrupted, options);
  }
}

/** The platform has no such record (a 404 for a customer document): the one record asked for failed. */
export class NotFoundError extends B2bctlError {
  constructor(message: string) {
    super(message, ExitCode.someRecordsFailed);
  }
}

/** Some records failed; the summary and the report have already said which. */
export class PartialFailureError extends B2bctlError {
  constructor(message: string) {
    super(message, ExitCode.someRecordsFailed);
  }
}

export interface PlatformRequestInfo {
  method: string;
  url: string;
}

/** The platform answered with an error status that retrying will not fix. */
export class PlatformError extends B2bctlError {
  readonly status: number;
  readonly platformMessage: string | undefined;
  /**
   * Field and value of a 422 `Property [field] with value [value] does not pass validation`; else the field alone, when
   * an `errors` list names one (fieldOfErrors).
   */
  readonly field: string | undefined;
  readonly value: string | undefined;
  readonly request: PlatformRequestInfo;
  readonly body: unknown;
  /**
   * `explanation`: b2bctl's reading of an answer that holds no words of the platform (an encoded "/" refused by a
   * server in front of it), said in place of what the body would say.
   */
  constructor(status: number, request: PlatformRequestInfo, body: unknown, explanation?: string) {
    const platformMessage = explanation ?? messageOfBody(body);
    // The field and value from the words as written: a value may hold a line break the shown message has not.
    const written = explanation === undefined ? wordsOfBody(body) : undefined;
    const violation = written === undefined ? undefined : parseValidationMessage(written);
    super(
      `${request.method} ${request.url} failed with HTTP ${status}${platformMessage ? `: ${platformMessage}` : ''}`,
      status === 401 || status === 403 ? ExitCode.authFailed : ExitCode.someRecordsFailed,
    );
    this.status = status;
    this.request = request;
    this.body = body;
    this.platformMessage = platformMessage;
    this.field = violation?.field ?? (explanation === undefined ? fieldOfErrors(body) : undefined);
    this.value = violation?.value;
  }
}

const validationMessagePattern =
  /^Property \[(?<field>[^\]]*)\] with value \[(?<value>[\s\S]*)\] does not pass validation/;

/** Splits the platform's 422 wording into the field and the value it names. */
export function parseValidationMessage(message: string): { field: string; value: string } | undefined {
  const match = validationMessagePattern.exec(message);
  if (!match?.groups) return undefined;
  return { field: match.groups.field ?? '', value: match.groups.value ?? '' };
}

/**
 * The platform's own words in an error body: a text body, or the common JSON shapes (`message`, OAuth's
 * `error_description`, `error` as text or as `{code, description | message}`, `errors` as `[{field, message | detail
 * | title}]` or `{field: [messages]}`, RFC 7807 problem details' `detail` and `title`, a `reason`), each under its
 * Portuguese name too (`mensagem`, `erro`, `erros: [{campo, mensagem}]`, `detalhe`, `motivo`). Undefined when it has
 * none.
 * Every command reads refusals through this one function; nothing decides on the wording it returns. On one line
 * and bounded, as every message that quotes them is: a line break in the platform's words would break the log line.
 */
export function messageOfBody(body: unknown): string | undefined {
  const words = wordsOfBody(body);
  return words === undefined ? undefined : quotedAnswer(words, 500);
}

/** `messageOfBody` as written, before it is put on one line. */
function wordsOfBody(body: unknown): string | undefined {
  if (typeof body === 'string') {
    if (body.trim() === '') return undefined;
    // A gateway's or proxy's error page: its title says more than 500 characters of markup.
    if (/^\s*<(?:!doctype html|html[\s>])/i.test(body)) {
      const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(body)?.[1]?.replace(/\s+/g, ' ').trim();
      return `an HTML page${title ? ` ("${title.slice(0, 80)}")` : ''}, not the platform's answer: check the base URL and any proxy in between`;
    }
    return hideEchoedSecret(body.trim());
  }
  if (!isPlainRecord(body)) return undefined;
  // A Brazilian platform words its refusals in Portuguese (`mensagem`, `erro`, `erros: [{campo, mensagem}]`,
  // `motivo`, `detalhe`): read as their English names are, or a 400 in its own words got b2bctl's guess in their
  // place ("the e-mail … is registered to another customer") and a 409 no reason at all (a fresh user test).
  const error = body.error ?? body.erro;
  const lead =
    textAt(body, ['message', 'mensagem', 'error_description', 'error', 'erro']) ??
    (isPlainRecord(error) ? textAt(error, [...messageKeys(), 'title']) : undefined) ??
    textAt(body, ['detail', 'detalhe', 'title', 'titulo', 'description', 'descricao', 'reason', 'motivo']);
  const listed = listedMessages(body.errors ?? body.erros);
  if (lead === undefined) return listed === undefined ? undefined : hideEchoedSecret(listed);
  return hideEchoedSecret(
    listed === undefined || lead.includes(listed) ? lead : `${lead.replace(/[\s.:]+$/, '')}: ${listed}`,
  );
}

/**
 * The one field an `errors` (`erros`) list names (`[{"campo": "phone", …}]`), when its entries name no other: what a
 * refusal is about, though not in the documented `Property [field] …` wording, so no hint about another field (the
 * groups sent) is put beside the platform's words.
 */
function fieldOfErrors(body: unknown): string | undefined {
  if (!isPlainRecord(body)) return undefined;
  const errors = body.errors ?? body.erros;
  if (!Array.isArray(errors)) return undefined;
  const fields = new Set(errors.filter(isPlainRecord).map((entry) => textAt(entry, fieldKeys())));
  const [only] = fields;
  return fields.size === 1 ? only : undefined;
}

function fieldKeys(): readonly string[] {
  return ['field', 'campo', 'property', 'propriedade', 'path', 'param'];
}

/** `errors` as a list of messages (`[{field, message}]`, `["text"]`) or a map of field to messages. */
function listedMessages(errors: unknown): string | undefined {
  const texts: string[] = [];
  if (Array.isArray(errors)) {
    for (const entry of errors.slice(0, 10)) {
      if (typeof entry === 'string' && entry.trim() !== '') texts.push(entry.trim());
      else if (isPlainRecord(entry)) {
        const text = textAt(entry, [...entryMessageKeys(), 'error', 'erro', 'reason', 'motivo']);
        const field = textAt(entry, fieldKeys());
        if (text !== undefined) texts.push(field === undefined ? text : `${field}: ${text}`);
      }
    }
  } else if (isPlainRecord(errors)) {
    for (const [field, value] of Object.entries(errors).slice(0, 10)) {
      const said = (Array.isArray(value) ? value : [value]).filter(
        (text): text is string => typeof text === 'string' && text.trim() !== '',
      );
      if (said.length > 0) texts.push(`${field}: ${said.join('; ')}`);
    }
  }
  return texts.length > 0 ? texts.join('; ') : undefined;
}

/** The keys an `error` object holds its words under, in English and in Portuguese. */
function messageKeys(): readonly string[] {
  return ['description', 'descricao', 'message', 'mensagem', 'detail', 'detalhe'];
}

/** The keys an `errors` entry holds its words under, in English and in Portuguese. */
function entryMessageKeys(): readonly string[] {
  return ['message', 'mensagem', 'detail', 'detalhe', 'description', 'descricao', 'title', 'titulo'];
}

function textAt(record: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = record[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The exit code for anything thrown out of a command. */
export function exitCodeOf(error: unknown): ExitCode {
  if (error instanceof B2bctlError) return error.exitCode;
  return ExitCode.someRecordsFailed;
}

/** The one line printed for an error; the stack only when the user asked for detail. */
export function describeError(error: unknown, verbose: boolean): string {
  if (error instanceof B2bctlError && !verbose) return `error: ${error.message}`;
  if (error instanceof Error) {
    if (verbose)
      return `error: ${error.message}\n${error.stack ?? ''}${error.cause ? `\ncaused by: ${String((error.cause as Error).stack ?? error.cause)}` : ''}`;
    return `error: ${error.message} (run with --verbose for details)`;
  }
  return `error: ${String(error)}`;
}
