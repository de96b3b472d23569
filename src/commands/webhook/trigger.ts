import { type Context, stdoutStyle } from '../../context.js';
import { createRecordWriter, type RecordLayout } from '../../io/output/record-writer.js';
import type { WebhookKind } from '../../domain/webhook-events.js';
import { AuthError, InputError, PartialFailureError, UnavailableError, UsageError } from '../../base/errors.js';
import { refusePlainHttp } from '../../net/plain-http.js';
import { deliverWebhook, sampleEvent, type DeliveryStep } from '../../webhook/sender.js';
import type { TokenStyle } from '../../http-server/tokens.js';
import { profileSetting } from '../../command-kit/client-secret.js';
import { webhookClientSecret } from './client-secret.js';
import { defaultReceiverPaths } from '../../webhook/receiver.js';
import { readFileOrPipe } from '../../lib/named-file.js';
import { printable } from '../../lib/printable.js';

export interface TriggerOptions {
  kind: WebhookKind;
  url: string;
  style: TokenStyle;
  /** The flag; else the profile's webhook.clientId, as the secret is read from its webhook.clientSecretFile. */
  clientId?: string;
  clientSecretFile?: string;
  /** A JSON file with the event to send instead of the sample. */
  data?: string;
  tokenPath?: string;
  eventPath?: string;
  /** `--allow-http`: send the client secret over plain HTTP to another machine. */
  allowHttp?: boolean;
}

/** `b2bctl webhook trigger`: plays the platform against a receiver, token first, and reports each step. */
export async function run(options: TriggerOptions, context: Context): Promise<void> {
  refusePlainHttp(new URL(options.url), 'the client secret', options.allowHttp === true, undefined, context.env);
  // The receiver set up under a profile reads both from it (webhook listen): trigger reads both as well (a user test).
  const clientId = options.clientId ?? (await profileSetting(context, 'webhook.clientId'));
  if (!clientId)
    throw new UsageError(
      'Give the client id the receiver checks: --client-id ID (or the webhook.clientId setting of the profile).',
    );
  const clientSecret = await webhookClientSecret(context, options.clientSecretFile);
  const payload =
    options.data === undefined
      ? sampleEvent(options.kind, new Date(context.clock.now()))
      : await readEventFile(options.data);
  const tokenPath =
    options.tokenPath ?? (await profileSetting(context, 'webhook.paths.token')) ?? defaultReceiverPaths.token;
  const eventPath =
    options.eventPath ??
    (await profileSetting(context, `webhook.paths.${options.kind}`)) ??
    defaultReceiverPaths[options.kind];
  const outcome = await deliverWebhook(
    {
      url: options.url,
      style: options.style,
      clientId,
      clientSecret,
      tokenPath,
      customersPath: eventPath,
      ordersPath: eventPath,
    },
    options.kind,
    payload,
    {
      env: context.env,
      urlFlag: '--url',
      trace: context.globals.verbose ? (line) => context.log.debug(line) : undefined,
    },
  );
  await printSteps(outcome.steps, context);
  if (outcome.delivered) return;
  const failed = outcome.steps.at(-1) as DeliveryStep;
  const what = `${failed.step === 'token' ? 'Token request' : `The ${options.kind} event`} to ${failed.url}`;
  if (failed.error !== undefined && failed.status === undefined)
    throw new UnavailableError(`${what} failed: ${failed.error}.`);
  if (failed.step === 'token' && (failed.status === 401 || failed.status === 400)) {
    throw new AuthError(
      `${what} was refused (HTTP ${failed.status}) in the ${options.style} style: check --client-id, the secret and --style.`,
    );
  }
  throw new PartialFailureError(
    `${what} was answered ${failed.status === undefined ? failed.error : `HTTP ${failed.status}`}.`,
  );
}

/** A terminal gets a line a step (stepLine); this layout serves the other formats, whose columns it names. */
const stepLayout: RecordLayout<DeliveryStep> = {
  table: [],
  csv: ['step', 'url', 'status', 'error', 'answer'],
};

/** The steps in the format asked: NDJSON when piped, as the command's help says; -o json one array, -o csv rows. */
async function printSteps(steps: DeliveryStep[], context: Context): Promise<void> {
  const format = context.outputFormat('ndjson');
  if (format === 'table') {
    for (const step of steps) context.io.stdout.write(`${stepLine(step)}\n`);
    return;
  }
  const writer = createRecordWriter(format, context.io.stdout, stepLayout, stdoutStyle(context));
  for (const step of steps) await writer.write(step);
  await writer.end();
}

function stepLine(step: DeliveryStep): string {
  const outcome = step.status !== undefined ? `HTTP ${step.status}` : `failed: ${step.error}`;
  const answer = step.step === 'event' && step.answer ? `  ${step.answer.replace(/\s+/g, ' ')}` : '';
  return `${step.step.padEnd(5)}  ${outcome}  ${step.url}${answer}${step.error && step.status !== undefined ? `  (${step.error})` : ''}`;
}

async function readEventFile(file: string): Promise<string> {
  let text: string;
  try {
    text = (await readFileOrPipe(file)).toString('utf8');
  } catch (error) {
    throw new InputError(
      `${printable(file)}: cannot read the event file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
      { file, missing: true },
    );
  }
  try {
    JSON.parse(text);
  } catch (error) {
    // JSON.parse quotes the text around the fault, line breaks and all: written as \n, the error stays one line.
    const fault = (error as Error).message.replace(/\r/g, '\\r').replace(/\n/g, '\\n');
    throw new InputError(`${printable(file)}: not valid JSON (${fault}); --data takes one JSON event.`, { file });
  }
  // Sent as written, so a receiver can be tested with exactly the bytes in the file.
  return text;
}
