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
