import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { accessLog, type AccessEntry } from '../../src/observability/access-log.js';

function capture() {
  const lines: string[] = [];
  return { lines, stream: { write: (line: string) => void lines.push(line) } };
}

/** What pino itself writes for the entry, its time replaced by `time`. */
function pinoLine(entry: AccessEntry, time: string): string {
  const { lines, stream } = capture();
  const { latencyMs, ...fields } = entry;
  pino({ level: 'info' }, stream).info({ ...fields, latency_ms: latencyMs }, 'request');
  return lines[0]!.replace(/"time":\d+/, `"time":${time}`);
}

const entries: AccessEntry[] = [
  { reqId: 'bench-1', tenant: 'demo', operation: 'search_catalog', transport: 'rest', status: 200, latencyMs: 1.48 },
  { reqId: '0b9d7c1e-7a43-4f7e-9a55-5d0c2b1f2e3', tenant: 'demo', operation: 'discovery', transport: undefined, status: 304, latencyMs: 0 },
  { reqId: 'a"b\\c', tenant: undefined, operation: undefined, transport: undefined, status: 404, latencyMs: 12 },
  { reqId: 'x', tenant: 'caf\u00e9', operation: '/x/:id', transport: 'mcp', status: 500, latencyMs: Number.NaN },
];

describe('the access log', () => {
  it('writes the line pino writes for the same fields, the first time a value is seen and every time after', () => {
    const { lines, stream } = capture();
    const log = accessLog('info', stream);
    const written = [...entries, ...entries.toReversed(), { ...entries[0]!, tenant: 'other', transport: undefined }];
    for (const entry of written) log(entry);
    expect(lines).toHaveLength(written.length);
    for (const [i, line] of lines.entries()) {
      const time = /"time":(\d+)/.exec(line)![1]!;
      expect(Math.abs(Number(time) - Date.now())).toBeLessThan(60_000);
      expect(line).toBe(pinoLine(written[i]!, time));
    }
  });

  it('writes nothing when the level leaves info out', () => {
    const { lines, stream } = capture();
    accessLog('warn', stream)(entries[0]!);
    accessLog('silent', stream)(entries[0]!);
    accessLog('debug', stream)(entries[0]!);
    expect(lines).toHaveLength(1);
  });
});
