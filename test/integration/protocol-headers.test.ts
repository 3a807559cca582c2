import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { counterOperations } from '../helpers/counter-operation.js';
import { testGateway, type TestGateway } from '../helpers/gateway.js';
import { platformProfile } from '../helpers/platform.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway({ operations: counterOperations });
});
afterAll(() => gw.close());

const bump = (headers: Record<string, string>, body: unknown = { by: 1 }) =>
  gw.app.inject({ method: 'POST', url: '/counters/c1/bump', headers, payload: typeof body === 'string' ? body : JSON.stringify(body) });

describe('protocol headers on REST', () => {
  it('echoes Request-Id and wraps results in the proto envelope', async () => {
    const headers = gw.headers({ 'request-id': 'req-echo-1' });
    const res = await bump(headers);
    expect(res.statusCode).toBe(201);
    expect(res.headers['request-id']).toBe('req-echo-1');
    const body = res.json();
    expect(body.proto).toMatchObject({ version: '2026-04-08', status: 'success' });
    expect(Object.keys(body.proto.capabilities)).toContain('dev.proto.shopping.cart');
  });

  it('400 invalid_profile_url when PROTO-Agent is missing or unparseable', async () => {
    const missing = await bump(gw.headers({ 'proto-agent': undefined }));
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ code: 'invalid_profile_url', content: expect.any(String) });
    const malformed = await bump(gw.headers({ 'proto-agent': 'profile=<nope>' }));
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('invalid_profile_url');
  });

  it('400 missing_request_id, and a malformed one is refused too', async () => {
    expect((await bump(gw.headers({ 'request-id': undefined }))).json()).toMatchObject({ code: 'missing_request_id' });
    expect((await bump(gw.headers({ 'request-id': 'has space' }))).json()).toMatchObject({ code: 'invalid_request_id' });
  });

  it('400 missing_idempotency_key on a REST write, and a malformed key is refused', async () => {
    const res = await bump(gw.headers({ 'idempotency-key': undefined }));
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('missing_idempotency_key');
    expect((await bump(gw.headers({ 'idempotency-key': 'x'.repeat(300) }))).json().code).toBe('invalid_idempotency_key');
  });

  it('reads need no Idempotency-Key, and a failed business outcome is HTTP 200 with proto.status error', async () => {
    const res = await gw.app.inject({
      method: 'GET',
      url: '/counters/never',
      headers: gw.headers({ 'idempotency-key': undefined, 'content-type': undefined }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      proto: { status: 'error' },
      messages: [{ type: 'error', code: 'not_found', severity: 'unrecoverable' }],
    });
  });
});

describe('negotiation failures on REST', () => {
  it('400 invalid_profile_url', async () => {
    const res = await bump(gw.headers({ 'proto-agent': 'profile="not-a-url"' }));
    expect([res.statusCode, res.json().code]).toEqual([400, 'invalid_profile_url']);
  });

  it('424 profile_unreachable', async () => {
    const res = await bump(gw.headers({ 'proto-agent': 'profile="http://127.0.0.1:1/.well-known/proto"' }));
    expect([res.statusCode, res.json().code]).toEqual([424, 'profile_unreachable']);
  });

  it('422 profile_malformed for a profile that is not JSON or violates the profile schema', async () => {
    gw.platform.serve('/broken', { hello: 'world' });
    const res = await bump(gw.headers({ 'proto-agent': gw.platform.agent('/broken') }));
    expect([res.statusCode, res.json().code]).toEqual([422, 'profile_malformed']);
    gw.platform.serve('/html', (r) => r.writeHead(200, { 'content-type': 'text/html' }).end('<html>'));
    const html = await bump(gw.headers({ 'proto-agent': gw.platform.agent('/html') }));
    expect([html.statusCode, html.json().code]).toEqual([422, 'profile_malformed']);
  });

  it('422 version_unsupported', async () => {
    gw.platform.serve('/future', platformProfile(undefined, {}, '2099-01-01'));
    const res = await bump(gw.headers({ 'proto-agent': gw.platform.agent('/future') }));
    expect([res.statusCode, res.json().code]).toEqual([422, 'version_unsupported']);
  });

  it('an operation whose capability is not in the intersection is a business outcome: 200, capabilities_incompatible', async () => {
    gw.platform.serve('/catalog-only', platformProfile(['dev.proto.shopping.catalog.search']));
    const res = await bump(gw.headers({ 'proto-agent': gw.platform.agent('/catalog-only') }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      proto: { version: '2026-04-08', status: 'error', capabilities: {} },
      messages: [
        {
          type: 'error',
          code: 'capabilities_incompatible',
          severity: 'unrecoverable',
          content: expect.stringContaining('dev.proto.shopping.cart'),
        },
      ],
      continue_url: expect.stringMatching(/^https:\/\//),
    });
    const read = await gw.app.inject({
      method: 'GET',
      url: '/counters/c1',
      headers: gw.headers({ 'proto-agent': gw.platform.agent('/catalog-only') }),
    });
    expect([read.statusCode, read.json().messages[0].code]).toEqual([200, 'capabilities_incompatible']);
  });

  it('lists only the intersection', async () => {
    gw.platform.serve(
      '/cart-and-discount',
      platformProfile(['dev.proto.shopping.cart', 'dev.proto.shopping.discount', 'com.vendor.extra']),
    );
    const ok = await bump(gw.headers({ 'proto-agent': gw.platform.agent('/cart-and-discount') }));
    expect(Object.keys(ok.json().proto.capabilities).sort()).toEqual(['dev.proto.shopping.cart', 'dev.proto.shopping.discount']);
  });
});
