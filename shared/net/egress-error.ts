/**
 * Why an outbound request did not happen or was cut. Messages start with the field the
 * URL came from (`source.url: ...`) and never quote what the remote sent back: a status
 * code, an error code, the host and the address are all they name.
 */
export type EgressFailure =
  /** Refused before connecting: scheme, credentials, address, allow-list, redirect target. */
  | 'forbidden'
  /** Content-Length or the streamed bytes passed the cap. */
  | 'too-large'
  /** The connect or total time cap passed. */
  | 'timeout'
  /** More redirects than allowed. */
  | 'redirects'
  /** DNS, connection or TLS failure. */
  | 'network';

export class EgressError extends Error {
  /** `label: reason`; `reason` alone serves validators that add the field themselves. */
  readonly failure: EgressFailure;
  readonly reason: string;

  constructor(failure: EgressFailure, label: string, reason: string) {
    super(`${label}: ${reason}`);
    this.failure = failure;
    this.reason = reason;
    this.name = 'EgressError';
  }
}

export const isEgressError = (error: unknown): error is EgressError => error instanceof EgressError;
