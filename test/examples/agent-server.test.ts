/**
 * The example agent's file server (`npm run agent -- serve`): its profile on loopback, nothing
 * outside its folder, and nothing written to the terminal while it serves.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { serveFolder } from '../../scripts/agent-server.js';

let server: Server;
let base: string;
beforeAll(async () => {
  server = await serveFolder('docs/examples/agent', 0);
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((done) => server.close(done)));

describe('npm run agent -- serve', () => {
  it('serves the profile as JSON on 127.0.0.1 and logs no request', async () => {
    const write = vi.spyOn(process.stdout, 'write');
    const response = await fetch(`${base}/.well-known/proto`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toMatchObject({ proto: { version: '2026-04-08' } });
    expect((server.address() as AddressInfo).address).toBe('127.0.0.1');
    expect(write).not.toHaveBeenCalled();
    write.mockRestore();
  });

  it('answers 404 outside its folder (encoded slashes too), 405 to writes', async () => {
    for (const path of ['/.well-known/..%2f..%2f..%2f..%2fpackage.json', '/.well-known', '/missing']) {
      const response = await fetch(`${base}${path}`);
      expect(response.status, path).toBe(404);
    }
    expect((await fetch(`${base}/.well-known/proto`, { method: 'POST', body: '{}' })).status).toBe(405);
  });
});
