import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { counterOperations } from '../helpers/counter-operation.js';
import { testGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway({ operations: counterOperations });
});
afterAll(() => gw.close());

describe('request logs', () => {
  it('write one line per request with tenant, operation, status, latency and request id', async () => {
    await gw.app.inject({
      method: 'POST',
      url: '/counters/log/bump',
      headers: gw.headers({ 'request-id': 'log-line-1' }),
      payload: '{"by":1}',
    });
    const lines = gw.logs.filter((l) => l.reqId === 'log-line-1');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'request', tenant: 'shop', operation: 'bump_counter', transport: 'rest', status: 201 });
    expect(typeof lines[0]!.latency_ms).toBe('number');
  });

  it('never contain credentials, even on failing requests', async () => {
    const secrets = ['Bearer sk_live_very_secret_token', 'api-key-secret-123', 'sig1=:c2VjcmV0LXNpZ25hdHVyZQ==:'];
    await gw.app.inject({
      method: 'POST',
      url: '/counters/log/bump',
      headers: gw.headers({ authorization: secrets[0], 'x-api-key': secrets[1], signature: secrets[2] }),
      payload: '{"by":1,"card":{"credential":{"token":"tok_4242_secret"}}}',
    });
    await gw.app.inject({
      method: 'POST',
      url: '/counters/log/bump',
      headers: gw.headers({ authorization: secrets[0] }),
      payload: '{"by":"bad"}',
    });
    const all = gw.rawLogs.join('\n');
    for (const secret of [...secrets, 'tok_4242_secret']) expect(all).not.toContain(secret);
    expect(gw.logs.length).toBeGreaterThan(1);
  });
});

const bufferAsText = (_key: string, value: unknown) =>
  value !== null && typeof value === 'object' && (value as { type?: unknown }).type === 'Buffer'
    ? Buffer.from((value as { data: number[] }).data).toString('latin1')
    : value;

describe('client errors at LOG_LEVEL=trace', () => {
  let traced: TestGateway;
  beforeAll(async () => {
    traced = await testGateway({ operations: counterOperations, logLevel: 'trace' });
  });
  afterAll(() => traced.close());

  /** A request Node's parser refuses after reading its credentials; the bytes it read are on the error. */
  function malformed(port: number, credentialLines: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () =>
        socket.write(`GET /.well-known/proto HTTP/1.1\r\nHost: shop.example\r\n${credentialLines}Bad Header: (space in the name)\r\n\r\n`),
      );
      socket
        .on('data', () => {})
        .on('close', () => resolve())
        .on('error', reject);
    });
  }

  it('the client-error line carries none of the credentials the refused request held', async () => {
    const address = await traced.app.listen({ port: 0, host: '127.0.0.1' });
    const port = Number(new URL(address).port);
    const kinds: Record<string, [header: string, value: string]> = {
      'api key': ['X-API-Key', 'pk_live_TRACELEAK_apikey_5e1c'],
      'bearer token': ['Authorization', 'Bearer TRACELEAK_bearer_9d2a'],
      cookie: ['Cookie', 'session=TRACELEAK_cookie_7b3f'],
      'request signature': ['Signature', 'sig1=:VFJBQ0VMRUFLX3NpZ25hdHVyZQ==:'],
      'embedded page auth': ['EP-Auth', 'TRACELEAK_ep_auth_1c8e'],
    };
    for (const [, [name, value]] of Object.entries(kinds)) await malformed(port, `${name}: ${value}\r\n`);
    await expect.poll(() => traced.logs.filter((l) => /^client /.test(String(l.msg))).length).toBe(Object.keys(kinds).length);
    // As written, and with every Buffer pino wrote (`{"type":"Buffer","data":[…]}`) read back as text.
    const all = traced.rawLogs.join('\n');
    const decoded = traced.rawLogs.map((line) => JSON.stringify(JSON.parse(line, bufferAsText))).join('\n');
    for (const [kind, [, value]] of Object.entries(kinds)) {
      const secret = value.replace(/^Bearer /, '');
      expect(all, kind).not.toContain(secret);
      expect(decoded, kind).not.toContain(secret);
    }
  });
});
