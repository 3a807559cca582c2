import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type TLSSocket } from 'node:tls';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TlsSettings, TrustProxy } from '../../src/config/env.js';
import { buildServer } from '../../src/server.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import { TenantRegistry } from '../../src/tenancy/registry.js';
import { assembleTenant } from '../../src/tenancy/tenant.js';
import { httpsOptions } from '../../src/transports/tls.js';
import { baseTenantConfig } from '../helpers/gateway.js';
import { stubAdapter } from '../helpers/stub-adapter.js';

/** A throwaway CA, a server certificate for 127.0.0.1 and a client certificate, all P-256. */
function makeCertificates(dir: string) {
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '1', '-subj', '/CN=test-ca');
  const issue = (name: string, subject: string, extensions: string) => {
    writeFileSync(join(dir, `${name}.ext`), extensions);
    openssl('req', ...ec, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject);
    openssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      `${name}.crt`,
      '-days',
      '1',
      '-extfile',
      `${name}.ext`,
    );
  };
  issue('server', '/CN=gateway.test', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  issue('client', '/CN=platform.example', 'extendedKeyUsage=clientAuth\n');
  const file = (name: string) => join(dir, name);
  return {
    ca: file('ca.crt'),
    serverCert: file('server.crt'),
    serverKey: file('server.key'),
    clientCert: file('client.crt'),
    clientKey: file('client.key'),
  };
}

async function gateway(options: { https?: TlsSettings; trustProxy?: TrustProxy }): Promise<FastifyInstance> {
  const tenant = assembleTenant({ config: baseTenantConfig, file: 'shop.yaml' }, stubAdapter());
  const app = await buildServer({
    settings: { bodyLimitBytes: 65_536, logLevel: 'silent' },
    tenants: new TenantRegistry([tenant]),
    store: new MemoryStore(),
    ...(options.https && { https: httpsOptions(options.https) }),
    ...(options.trustProxy !== undefined && { trustProxy: options.trustProxy }),
  });
  // What authentication sees of the connection and of forwarded headers.
  app.get('/whoami', async (req) => {
    const socket = req.raw.socket as TLSSocket;
    return {
      ip: req.ip,
      protocol: req.protocol,
      tls: socket.encrypted ? socket.getProtocol() : null,
      authorized: socket.encrypted ? socket.authorized : null,
      peer: socket.encrypted ? (socket.getPeerCertificate().subject?.CN ?? null) : null,
    };
  });
  return app;
}

interface Client {
  ca: Buffer;
  cert?: Buffer;
  key?: Buffer;
}

function get(port: number, path: string, client: Client): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false, ...client }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk)).on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', reject).end();
  });
}

/** Resolves with the negotiated protocol, or rejects with the handshake error. */
function handshake(port: number, options: { ca: Buffer; maxVersion?: 'TLSv1.2' }): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, ...options }, () => {
      resolve(socket.getProtocol());
      socket.end();
    });
    socket.on('error', reject);
  });
}

let dir: string;
let certs: ReturnType<typeof makeCertificates>;
let trust: Client;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'proto-tls-'));
  certs = makeCertificates(dir);
  trust = { ca: readFileSync(certs.ca) };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function listen(https: TlsSettings): Promise<number> {
  app = await gateway({ https });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as { port: number }).port;
}

describe('HTTPS listener', () => {
  it('negotiates TLS 1.3 and serves the gateway', async () => {
    const port = await listen({ certFile: certs.serverCert, keyFile: certs.serverKey });
    expect(await handshake(port, trust)).toBe('TLSv1.3');
    expect(await get(port, '/healthz', trust)).toEqual({ status: 200, body: { status: 'ok' } });
    expect((await get(port, '/whoami', trust)).body).toMatchObject({ protocol: 'https', tls: 'TLSv1.3' });
  });

  it('refuses a client that speaks at most TLS 1.2', async () => {
    const port = await listen({ certFile: certs.serverCert, keyFile: certs.serverKey });
    await expect(handshake(port, { ...trust, maxVersion: 'TLSv1.2' })).rejects.toMatchObject({
      code: expect.stringMatching(/PROTOCOL_VERSION|UNSUPPORTED_PROTOCOL/),
    });
  });

  it('with TLS_CLIENT_CERT=require, refuses a client without a certificate and shows a verified one to the request', async () => {
    const port = await listen({ certFile: certs.serverCert, keyFile: certs.serverKey, caFile: certs.ca, clientCert: 'require' });
    await expect(get(port, '/whoami', trust)).rejects.toThrow();
    const withCert = { ...trust, cert: readFileSync(certs.clientCert), key: readFileSync(certs.clientKey) };
    expect(await get(port, '/whoami', withCert)).toMatchObject({ status: 200, body: { authorized: true, peer: 'platform.example' } });
  });

  it('with TLS_CLIENT_CERT=request, serves clients without a certificate, unauthorized', async () => {
    const port = await listen({ certFile: certs.serverCert, keyFile: certs.serverKey, caFile: certs.ca, clientCert: 'request' });
    expect(await get(port, '/whoami', trust)).toMatchObject({ status: 200, body: { authorized: false, peer: null } });
    const withCert = { ...trust, cert: readFileSync(certs.clientCert), key: readFileSync(certs.clientKey) };
    expect((await get(port, '/whoami', withCert)).body).toMatchObject({ authorized: true, peer: 'platform.example' });
  });

  it('names the setting when a certificate file cannot be read', () => {
    expect(() => httpsOptions({ certFile: join(dir, 'missing.crt'), keyFile: certs.serverKey })).toThrow(
      /TLS_CERT_FILE: cannot read .*missing\.crt \(ENOENT\)/,
    );
  });
});

describe('behind a TLS-terminating proxy', () => {
  const forwarded = { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' };

  it('believes X-Forwarded-* only from the proxies TRUST_PROXY lists', async () => {
    app = await gateway({ trustProxy: ['127.0.0.1'] });
    const fromProxy = await app.inject({ method: 'GET', url: '/whoami', headers: forwarded, remoteAddress: '127.0.0.1' });
    expect(fromProxy.json()).toMatchObject({ ip: '203.0.113.7', protocol: 'https' });
    const fromElsewhere = await app.inject({ method: 'GET', url: '/whoami', headers: forwarded, remoteAddress: '198.51.100.1' });
    expect(fromElsewhere.json()).toMatchObject({ ip: '198.51.100.1', protocol: 'http' });
  });

  it('ignores forwarded headers without TRUST_PROXY', async () => {
    app = await gateway({});
    const res = await app.inject({ method: 'GET', url: '/whoami', headers: forwarded, remoteAddress: '127.0.0.1' });
    expect(res.json()).toMatchObject({ ip: '127.0.0.1', protocol: 'http' });
  });
});
