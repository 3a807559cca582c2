/**
 * Fastify's `childLoggerFactory`: every request gets `req.log`, a pino child bound to its
 * request id, but most requests never log through it (the access line has a logger of its own,
 * transports/request-hooks.ts). pino makes a child by serializing its bindings through the
 * redaction paths (the wildcard ones apply to every key), a few µs per request; this logger
 * makes that child only when a line is written or a level is asked for.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, LevelWithSilentOrString } from 'pino';

class RequestLogger {
  // Declared, not class fields: with useDefineForClassFields tsc makes each field an
  // Object.defineProperty call, four per request here; plain assignments cost a fraction of that.
  declare private made: FastifyBaseLogger | undefined;
  declare private readonly parent: FastifyBaseLogger;
  declare private readonly bindings: Bindings;
  declare private readonly options: ChildLoggerOptions;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.parent = parent;
    this.bindings = bindings;
    this.options = options;
    this.made = undefined;
  }

  private get log(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  get level(): LevelWithSilentOrString {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: LevelWithSilentOrString) {
    this.log.level = level;
  }

  fatal(...args: unknown[]): void {
    Reflect.apply(this.log.fatal, this.log, args);
  }
  error(...args: unknown[]): void {
    Reflect.apply(this.log.error, this.log, args);
  }
  warn(...args: unknown[]): void {
    Reflect.apply(this.log.warn, this.log, args);
  }
  info(...args: unknown[]): void {
    Reflect.apply(this.log.info, this.log, args);
  }
  debug(...args: unknown[]): void {
    Reflect.apply(this.log.debug, this.log, args);
  }
  trace(...args: unknown[]): void {
    Reflect.apply(this.log.trace, this.log, args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.log.child(bindings, options);
  }
}

export function requestLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new RequestLogger(logger, bindings, options);
}
