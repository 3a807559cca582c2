/** The errors adapters throw, and what the gateway makes of each. */

/** Thrown by `search` for a page token it did not issue for this query; the gateway answers 400. */
export class InvalidPageTokenError extends Error {
  constructor() {
    super('page token is not valid for this query');
    this.name = 'InvalidPageTokenError';
  }
}

/** Thrown by adapters for backend failures; the gateway retries `retryable` ones. */
export class BackendError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'BackendError';
  }
}

/**
 * Thrown when the store answered something that cannot be used (a body that is not JSON, a
 * mapping that fails on it, an answer of the wrong shape): final, since the same call would
 * answer the same; the gateway answers `503 backend_invalid_response`.
 */
export class InvalidAnswerError extends BackendError {
  constructor(message: string) {
    super(message, false);
    this.name = 'InvalidAnswerError';
  }
}

/** An answer of the wrong shape or an unreadable body, named by the method that got it. */
export class InvalidBackendAnswer extends InvalidAnswerError {
  constructor(method: string, problem: string) {
    super(`backend ${method} answered an invalid ${problem}`);
    this.name = 'InvalidBackendAnswer';
  }
}
