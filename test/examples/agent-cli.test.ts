/**
 * The example agent's command (scripts/agent.ts) against a gateway in-process: it exits
 * non-zero on any protocol error, a 200 whose proto.status is error included, never prints
 * the bytes of a key file it cannot read, and on a busy port says what holds it.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, type AgentSettings } from '../../scripts/agent.js';
import { serveFolder } from '../../scripts/agent-server.js';
import { testGateway, type TestGateway } from '../helpers/gateway.js';
import { startPlatform } from '../helpers/platform.js';

let gw: TestGateway;
let settings: AgentSettings;
let dir: string;
beforeAll(async () => {
  // The tenant lists the example agent's profile: its signatures authenticate it (get_order needs that).
  const platform = await startPlatform();
  gw = await testGateway({ platform, tenant: { auth: { signatures: { profiles: [platform.url('/example-agent')] } } } });
  const gateway = await gw.app.listen({ port: 0, host: '127.0.0.1' });
  // The example agent's own profile (its public key), served by the test's platform.
  gw.platform.serve('/example-agent', JSON.parse(await readFile('docs/examples/agent/.well-known/proto', 'utf8')) as object);
  settings = { gateway, profile: gw.platform.url('/example-agent'), keyFile: 'docs/examples/agent.private.jwk' };
  dir = await mkdtemp(join(tmpdir(), 'agent-cli-'));
});
afterAll(async () => {
  await gw.close();
  await gw.platform.close();
  await rm(dir, { recursive: true, force: true });
});

async function agent(args: string[], overrides: Partial<AgentSettings> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(args, { out: (l) => out.push(l), err: (l) => err.push(l) }, { ...settings, ...overrides });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('npm run agent -- get-order', () => {
  it('exits 1 when the answer is a protocol error (a 200 whose proto.status is error), naming its code', async () => {
    const result = await agent(['get-order', 'ord_never_placed']);
    expect(JSON.parse(result.out)).toMatchObject({ proto: { status: 'error' }, messages: [{ code: 'not_found' }] });
    expect(result.err).toContain('not_found');
    expect(result.code).toBe(1);
  });

  it('exits 1 on a non-2xx answer (signed with a key the claimed profile does not publish)', async () => {
    const result = await agent(['get-order', 'ord_x'], { profile: gw.platform.url() });
    expect(result.err).toMatch(/answered 4\d\d/);
    expect(result.code).toBe(1);
  });

  it('never prints the bytes of a key file that is not JSON', async () => {
    const keyFile = join(dir, 'key.env');
    await writeFile(keyFile, 'd=SUPERSECRETPRIVATEKEYMATERIAL\n');
    const result = await agent(['get-order', 'ord_x'], { keyFile });
    expect(result.code).toBe(1);
    expect(result.err).toContain('is not JSON');
    expect(`${result.out}\n${result.err}`).not.toMatch(/SUPERSECRET|d=/);
  });
});

describe('npm run agent -- serve on a busy port', () => {
  it('says an agent is already serving there (an earlier --detach) and how to stop it', async () => {
    const earlier = await serveFolder('docs/examples/agent', 0);
    const { port } = earlier.address() as AddressInfo;
    try {
      const result = await agent(['serve', '--port', String(port)]);
      expect(result.code).toBe(1);
      expect(result.err).toContain(`127.0.0.1:${port} is in use: an agent's profile is already served there`);
      expect(result.err).toContain('npm run agent -- serve --detach');
      expect(result.err).toMatch(/Stop it with the `kill <pid>` that --detach printed/);
      expect(result.err).not.toContain('EADDRINUSE');
    } finally {
      await new Promise((done) => earlier.close(done));
    }
  });

  it('held by something else, it still says what may hold it and what to do', async () => {
    const other = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((done) => other.listen(0, '127.0.0.1', done));
    const { port } = other.address() as AddressInfo;
    try {
      const result = await agent(['serve', '--port', String(port)]);
      expect(result.code).toBe(1);
      expect(result.err).toContain(`127.0.0.1:${port} is in use: an agent may already be serving there`);
      expect(result.err).toContain('--port');
    } finally {
      await new Promise((done) => other.close(done));
    }
  });
});
