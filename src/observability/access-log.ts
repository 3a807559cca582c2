/**
 * The one access-log line per request, byte for byte the line `pino({ level }).info(fields, 'request')`
 * writes, but from a template: the line's fields are fixed, so the level, time, pid and hostname
 * prefix is made once and each field is appended by name. pino's generic path (the merge object
 * walked key by key, each value's type switched on, the chindings and level label looked up) was
 * the largest single cost of a cached catalog read.
 */
import { hostname } from 'node:os';
import { pino, type DestinationStream } from 'pino';

export interface AccessEntry {
  reqId: string;
  tenant: string | undefined;
  operation: string | undefined;
  transport: string | undefined;
  status: number;
  latencyMs: number;
}

export type AccessLog = (entry: AccessEntry) => void;

/** pino's line for a string field: JSON text (the values here are ids, names and enums). */
const field = (name: string, value: string | undefined) => (value === undefined ? '' : `,"${name}":${JSON.stringify(value)}`);
/** Field texts kept per field name: tenants, operations and transports are few, the cap is a guard. */
const MAX_KNOWN = 1000;

/** The field's text for each value seen, made once: tenant ids, operation names and transports repeat on every line. */
function knownField(name: string): (value: string | undefined) => string {
  const texts = new Map<string, string>();
  return (value) => {
    if (value === undefined) return '';
    let text = texts.get(value);
    if (text === undefined) {
      text = field(name, value);
      if (texts.size < MAX_KNOWN) texts.set(value, text);
    }
    return text;
  };
}

/** pino writes a number that is not finite as null. */
const number = (value: number) => (Number.isFinite(value) ? String(value) : 'null');

/** `level`: the gateway's LOG_LEVEL; the line is written when `info` is enabled, as pino would. */
export function accessLog(level: string, destination: DestinationStream): AccessLog {
  if (!pino({ level }, destination).isLevelEnabled('info')) return () => {};
  const head = `{"level":${pino.levels.values.info},"time":`;
  const base = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;
  const tenant = knownField('tenant');
  const operation = knownField('operation');
  const transport = knownField('transport');
  return (e) => {
    destination.write(
      `${head}${Date.now()}${base}${field('reqId', e.reqId)}${tenant(e.tenant)}${operation(e.operation)}` +
        `${transport(e.transport)},"status":${number(e.status)},"latency_ms":${number(e.latencyMs)},"msg":"request"}\n`,
    );
  };
}
