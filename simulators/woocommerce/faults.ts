/**
 * Failures on demand, shaped as real WordPress hosts produce them: a host or CDN throttling with
 * 429 + Retry-After, the Store API's own rate limiter (429 `rate_limit_exceeded` +
 * RateLimit-Retry-After, plugins/woocommerce/src/StoreApi/docs/rate-limiting.md), a 5xx, the
 * theme's HTML error page, a plugin's PHP warning printed in front of the JSON (display_errors
 * on), a body cut short, and a request that never answers. Also latency and a log of calls.
 */

type FaultKind = 'throttle' | 'server_error' | 'html' | 'php_warning' | 'truncated' | 'hang';

export interface FaultSpec {
  kind: FaultKind;
  /** How many matching requests fail; default 1. */
  times?: number;
  /** Only requests whose path (without /wp-json) matches, e.g. /^\/wc\/store/. */
  match?: RegExp;
  /** Seconds announced by a throttle; default 1. */
  retryAfter?: number;
  /** Status of a server_error; default 503. */
  status?: number;
}

export interface Call {
  method: string;
  /** Route without /wp-json and query, e.g. /wc/v3/products. */
  route: string;
  /** When it arrived and when it was answered (ms, performance.timeOrigin based); no end: never answered. */
  at: number;
  end?: number;
}

export const clockMs = () => performance.timeOrigin + performance.now();

interface Armed extends FaultSpec {
  left: number;
}

export class Faults {
  private readonly armed: Armed[] = [];
  readonly calls: Call[] = [];
  latencyMs = 0;

  add(spec: FaultSpec): void {
    this.armed.push({ ...spec, left: spec.times ?? 1 });
  }

  clear(): void {
    this.armed.length = 0;
  }

  /** The fault for this request, if one is armed for it (consumed). */
  take(route: string): FaultSpec | undefined {
    const index = this.armed.findIndex((f) => f.left > 0 && (!f.match || f.match.test(route)));
    if (index < 0) return undefined;
    const fault = this.armed[index]!;
    fault.left -= 1;
    if (fault.left === 0) this.armed.splice(index, 1);
    return fault;
  }

  record(method: string, route: string): Call {
    const call: Call = { method, route, at: clockMs() };
    this.calls.push(call);
    return call;
  }
}

export const PHP_WARNING =
  '<br />\n<b>Warning</b>:  Undefined array key "shipping_class" in ' +
  '<b>/var/www/html/wp-content/plugins/flat-rate-extras/flat-rate-extras.php</b> on line <b>212</b><br />\n';

export const HTML_ERROR_PAGE = `<!DOCTYPE html>
<html lang="en-US">
<head><meta charset="UTF-8" /><title>WordPress &rsaquo; Error</title></head>
<body id="error-page"><div class="wp-die-message"><p>There has been a critical error on this website.</p>
<p><a href="https://wordpress.org/documentation/article/faq-troubleshooting/">
Learn more about troubleshooting WordPress.</a></p></div></body>
</html>`;

export const HOST_THROTTLE_PAGE = `<html>
<head><title>429 Too Many Requests</title></head>
<body><center><h1>429 Too Many Requests</h1></center><hr><center>nginx</center></body>
</html>`;
