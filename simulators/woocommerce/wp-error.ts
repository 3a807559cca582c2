/**
 * WordPress REST errors: `{code, message, data: {status, ...}}` with the HTTP status of
 * data.status (WP_REST_Server::error_to_response). A Store API error still carries the route's
 * response headers (Nonce, Cart-Token: AbstractCartRoute::get_response adds them to every answer).
 */
export class WpError extends Error {
  headers: Record<string, string> = {};

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
  }

  body() {
    return { code: this.code, message: this.message, data: { status: this.status, ...this.data } };
  }
}

export const noRoute = () => new WpError(404, 'rest_no_route', 'No route was found matching the URL and request method.');

export const invalidParam = (param: string, reason: string) =>
  new WpError(400, 'rest_invalid_param', `Invalid parameter(s): ${param}`, { params: { [param]: reason }, details: {} });

export const missingParam = (param: string) =>
  new WpError(400, 'rest_missing_callback_param', `Missing parameter(s): ${param}`, { params: [param] });
