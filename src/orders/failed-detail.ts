/**
 * A listed order whose detail the platform answered with an error, after the client's retries: kept pending in the
 * cursor (decision 0046), never written in the detail's place.
 */
export class FailedDetail {
  readonly status: number;
  /** The platform's words, when its answer held any. */
  readonly platformMessage: string | undefined;
  constructor(status: number, platformMessage: string | undefined) {
    this.status = status;
    this.platformMessage = platformMessage;
  }
}
