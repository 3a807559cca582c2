/**
 * The README's MCP block, run as a newcomer pastes it (a stock MCP SDK client, `node` from this
 * folder) against the demo store, with the example agent's profile served: it searches, then
 * creates a checkout with the `meta` shape the block shows, and prints what is still missing.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serveFolder } from '../../scripts/agent-server.js';
import { demoGateway, type DemoGateway } from '../helpers/demo-gateway.js';
import { readmeScript, readmeSections } from './helpers/readme.js';

const exec = promisify(execFile);
let gw: DemoGateway;
let agent: Server;
let ports: { gateway: number; agent: number };
beforeAll(async () => {
  gw = await demoGateway();
  const url = await gw.app.listen({ port: 0, host: '127.0.0.1' });
  agent = await serveFolder('docs/examples/agent', 0);
  ports = { gateway: Number(new URL(url).port), agent: (agent.address() as AddressInfo).port };
});
afterAll(async () => {
  await gw.close();
  await new Promise((done) => agent.close(done));
});

it('searches, then creates a checkout with meta and the idempotency key, which lists what is missing', async () => {
  const sections = readmeSections(await readFile('README.md', 'utf8'));
  const mcp = sections.bySection
    .get('One operation table, four transports')!
    .filter((block) => block.includes('StreamableHTTPClientTransport'));
  expect(mcp).toHaveLength(1);
  const script = readmeScript({ intro: [], bySection: new Map([['MCP', mcp]]) }, ports, ['MCP']);
  const { stdout } = await exec('bash', ['-c', script], { timeout: 30_000 });
  expect(stdout).toContain("'Bouquet of Red Roses'");
  const [, id] = /^(chk_\S+) incomplete \[[^\]]*'\$\.fulfillment/m.exec(stdout) ?? [];
  expect(id, stdout).toBeDefined();
  const checkout = await gw.app.inject({
    method: 'GET',
    url: `/checkout-sessions/${id}`,
    headers: gw.headers({ 'proto-agent': `profile="http://127.0.0.1:${ports.agent}/.well-known/proto"` }),
  });
  expect(checkout.json()).toMatchObject({
    id,
    buyer: { email: 'ann@example.com' },
    line_items: [{ item: { id: 'bouquet_roses' }, quantity: 2 }],
  });
});
