import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { counterOperations } from '../helpers/counter-operation.js';
import { testGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway({ operations: counterOperations });
});
afterAll(() => gw.close());

const post = (payload: string | Buffer, headers: Record<string, string | undefined> = {}) =>
  gw.app.inject({ method: 'POST', url: '/counters/c/bump', headers: gw.headers(headers), payload });

describe('bad input gets a clear 4xx, never a 5xx', () => {
  it('malformed JSON: 400 invalid_json', async () => {
    const res = await post('{"by": 1');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'invalid_json', content: expect.stringContaining('not valid JSON') });
  });

  it('wrong types: 400 invalid_request naming the JSON path', async () => {
    const res = await post(JSON.stringify({ by: 'one' }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'invalid_request', content: '$.by must be integer' });
    expect((await post(JSON.stringify({}))).json().content).toBe('$.by is required');
    expect((await post(JSON.stringify([1, 2]))).json().content).toBe('$ must be object');
    expect((await post(JSON.stringify({ by: 1, note: 'x'.repeat(51) }))).json().content).toBe(
      '$.note must NOT have more than 50 characters',
    );
  });

  it('wrong content type: 415', async () => {
    const res = await post('by=1', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.statusCode).toBe(415);
    expect(res.json().code).toBe('unsupported_media_type');
  });

  it('oversized body: 413 payload_too_large', async () => {
    const res = await post(JSON.stringify({ by: 1, note: 'x'.repeat(100_000) }));
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('payload_too_large');
  });

  it('absurd nesting: 400 before parsing', async () => {
    const res = await post(`{"by":1,"deep":${'['.repeat(5000)}${']'.repeat(5000)}}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().content).toMatch(/nests deeper/);
  });

  it('prototype poisoning keys: 400', async () => {
    expect((await post('{"by":1,"__proto__":{"admin":true}}')).statusCode).toBe(400);
    expect((await post('{"by":1,"\\u005f_proto__":{"admin":true}}')).statusCode).toBe(400);
    expect((await post('{"by":1,"constructor":{"prototype":{"x":1}}}')).statusCode).toBe(400);
  });

  it('the same words as values, escapes and a byte order mark are read as JSON', async () => {
    expect((await post('{"by":1,"note":"__proto__ constructor"}')).statusCode).toBe(201);
    expect((await post('{"by":1,"note":"\\u00e9t\\u00e9"}')).statusCode).toBe(201);
    expect((await post('\ufeff{"by":1}')).statusCode).toBe(201);
  });

  it('unknown routes and unknown ids', async () => {
    const res = await gw.app.inject({ method: 'GET', url: '/nope', headers: gw.headers() });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'not_found', content: 'no endpoint GET /nope' });
    const long = await gw.app.inject({ method: 'GET', url: `/counters/${'x'.repeat(300)}`, headers: gw.headers() });
    expect(long.statusCode).toBe(400);
  });

  it('an empty body on a write is validated as an empty object', async () => {
    const res = await post('');
    expect(res.statusCode).toBe(400);
    expect(res.json().content).toBe('$.by is required');
  });

  it('a body id that disagrees with the path id is refused', async () => {
    const res = await post(JSON.stringify({ id: 'other', by: 1 }));
    expect(res.statusCode).toBe(400);
    expect(res.json().content).toMatch(/does not match/);
  });

  it('an id of 10,000 characters, an unknown long path or a bad escape: {code, content} that does not quote them', async () => {
    const long = 'x'.repeat(10_000);
    for (const url of [`/counters/${long}`, `/counters/${long}/bump`, `/${long}`, '/counters/%zz']) {
      const res = await gw.app.inject({ method: 'GET', url, headers: gw.headers() });
      expect(res.statusCode, url.slice(0, 30)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(Object.keys(res.json()).sort()).toEqual(['code', 'content']);
      expect(res.body.length).toBeLessThan(400);
      expect(res.body).not.toContain('x'.repeat(300));
    }
    const mcp = await gw.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { 'content-type': 'application/json' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: long, arguments: { meta: gw.meta() } } },
    });
    expect(mcp.json().error.message.length).toBeLessThan(200);
  });

  it('two Host headers: 400, served by no tenant', async () => {
    const address = await gw.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.end('GET /.well-known/proto HTTP/1.1\r\nHost: shop.example\r\nHost: other.example\r\nConnection: close\r\n\r\n'),
      );
      let answer = '';
      socket
        .on('data', (chunk) => (answer += chunk.toString('utf8')))
        .on('end', () => resolve(answer))
        .on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
    expect(body).toEqual({ code: 'invalid_request', content: 'the request has more than one Host header' });
  });
});
