import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { requestLogger } from '../../src/observability/request-logger.js';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino(
    { level: 'info', redact: { paths: ['*.token'], censor: '[redacted]' } },
    { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  return { logger, lines };
}

describe('the request logger (req.log)', () => {
  it('writes lines bound to the request id, redacted as the gateway logger redacts', () => {
    const { logger, lines } = capture();
    const log = requestLogger(logger, { reqId: 'req-1' }, {});
    log.warn({ store: { token: 'sk_live_1' } }, 'store refused %s', 'the call');
    log.debug('not written at info');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ reqId: 'req-1', level: 40, msg: 'store refused the call', store: { token: '[redacted]' } });
  });

  it('answers its level, takes a new one, and makes children that keep the request id', () => {
    const { logger, lines } = capture();
    const log = requestLogger(logger, { reqId: 'req-2' }, {});
    expect(log.level).toBe('info');
    log.level = 'debug';
    log.debug('now written');
    log.child({ tenant: 'demo' }).info('from a child');
    expect(logger.level).toBe('info');
    expect(lines.map((l) => [l.reqId, l.msg, l.tenant])).toEqual([
      ['req-2', 'now written', undefined],
      ['req-2', 'from a child', 'demo'],
    ]);
  });
});
