/**
 * A newcomer's first run on a fresh clone, as the README tells it:
 * - `npm start`, `npm run keys` and `npm run outbox` compile only what changed: the first start
 *   builds dist/, later starts and the tools reuse it, an edited source is compiled again
 *   (judged by what happens to dist/, never by a stopwatch);
 * - the README's commands, from "Try it" to "Follow orders", pasted in order into one shell
 *   against the gateway `npm start` runs, with the gateway's and the agent's ports swapped for
 *   free ones (in the demo tenant's file too, which lists the agent); their output is checked section by section;
 * - "Try it" and "Try a checkout" pasted against every other demo the README names.
 */
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePorts } from '../helpers/redis-server.js';
import { cleanEnv, freshClone, startProcess, type FreshClone, type StartedProcess } from './helpers/fresh-clone.js';
import { readmeScript, readmeSections } from './helpers/readme.js';

let clone: FreshClone;
beforeAll(async () => {
  clone = await freshClone();
});
afterAll(async () => {
  await clone?.remove();
});

/** `npm start` on a free port, answering; stop() ends it. */
async function npmStart(): Promise<{ gateway: StartedProcess; port: number }> {
  const [port] = (await freePorts(1)) as [number];
  const gateway = startProcess('npm', ['start'], { cwd: clone.dir, env: cleanEnv({ PORT: String(port) }) });
  try {
    await gateway.waitFor(`Server listening at http://127.0.0.1:${port}`, 280_000);
  } catch (error) {
    await gateway.stop();
    throw error;
  }
  return { gateway, port };
}

describe('building a fresh clone', { timeout: 300_000 }, () => {
  it('compiles on the first npm start, then starts, runs keys and outbox without compiling again', async () => {
    await (await npmStart()).gateway.stop();
    const built = await clone.distTimes();
    expect(built.has('dist/src/main.js')).toBe(true);

    await (await npmStart()).gateway.stop();
    const keys = await clone.npm(['run', 'keys', '--', 'generate', '--private-only']);
    expect(keys.code, keys.stderr).toBe(0);
    expect(JSON.parse(keys.stdout.trim().split('\n').pop()!)).toMatchObject({ kty: 'EC', d: expect.any(String) });
    const outbox = await clone.npm(['run', 'outbox', '--', 'list']);
    expect(outbox.stderr).toContain('STORE is memory');
    expect(await clone.distTimes()).toEqual(built);
  });

  it('compiles an edited source again', async () => {
    const before = await clone.distTimes();
    await appendFile(join(clone.dir, 'src/config/env.ts'), '\n// edited\n');
    const build = await clone.npm(['run', 'build']);
    expect(build.code, build.stderr).toBe(0);
    expect((await clone.distTimes()).get('dist/src/config/env.js')).toBeGreaterThan(before.get('dist/src/config/env.js')!);
  });
});

describe('the README, pasted in order', { timeout: 300_000 }, () => {
  let gateway: StartedProcess;
  let port: number;
  let agentPort: number;
  let shell: StartedProcess | undefined;
  let outputs: string[];

  beforeAll(async () => {
    const sections = readmeSections(await clone.readme());
    // The first command a newcomer runs installs (here: node_modules is linked) and starts the demo.
    expect(sections.intro[0]!.split('\n')[0]).toMatch(/^npx -y -p node@[\d.]+ -- npm install && npm start\s/);
    expect(sections.intro[0]!.split('\n')[1]).toMatch(/^npm run test:all\s/);
    [agentPort] = (await freePorts(1)) as [number];
    // The demo tenant lists the example agent's profile at the documented port (its signatures read orders): swapped too.
    const demoTenant = join(clone.dir, 'config/tenants/demo.yaml');
    await writeFile(demoTenant, (await readFile(demoTenant, 'utf8')).replace(/\b9000\b/g, String(agentPort)));
    ({ gateway, port } = await npmStart());
    const script = readmeScript(sections, { gateway: port, agent: agentPort });
    shell = startProcess('bash', ['-c', script], {
      cwd: clone.dir,
      env: cleanEnv({ PORT: String(port), AGENT_PROFILE: `http://127.0.0.1:${agentPort}/.well-known/proto` }),
    });
    await shell.waitFor('::end::', 280_000);
    outputs = shell
      .stdout()
      .replace(/::end::\n$/, '')
      .split(/::block \d+::\n/)
      .slice(1);
  }, 600_000);
  afterAll(async () => {
    await shell?.stop(); // its process group: the agent's file server too
    await gateway?.stop();
  });

  const json = (text: string) => JSON.parse(text);

  it('Try it: discovery advertises the port the gateway listens on (PORT), not 8080', () => {
    const profile = json(outputs[0]!);
    // The embedded binding has no endpoint: its page is each session's continue_url.
    const endpoints = profile.proto.services['dev.proto.shopping'].flatMap((s: { endpoint?: string }) => (s.endpoint ? [s.endpoint] : []));
    expect(endpoints).toEqual([
      `http://127.0.0.1:${port}`,
      `http://127.0.0.1:${port}/mcp`,
      `http://127.0.0.1:${port}/.well-known/agent-card.json`,
    ]);
    expect(JSON.stringify(profile)).not.toContain(':8080');
  });

  it("Try it: the example agent's file server returns once serving, listens on loopback only, logs no request", async () => {
    expect(outputs[1]).toContain(`profile is served at http://127.0.0.1:${agentPort}/.well-known/proto`);
    expect(outputs[1]).toContain('"Bouquet of Red Roses"');
    expect(shell!.output()).not.toMatch(/GET \/\.well-known/);
    // Held on 127.0.0.1 only, the port is still free on another loopback address; on every interface it is not.
    const probe = createServer();
    await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(agentPort, '127.0.0.2', resolve));
    await new Promise((resolve) => probe.close(resolve));
  });

  it('Try a checkout: completes, with an order whose link names the real port', () => {
    const [, status, order] = /"status": "(\w+)",\s*"order": (\{[^}]*\})/.exec(outputs[2]!) ?? [];
    expect(status).toBe('completed');
    expect(json(order!)).toMatchObject({
      id: expect.stringMatching(/^ord_/),
      permalink_url: expect.stringContaining(`http://127.0.0.1:${port}/`),
    });
  });

  it('Follow orders: the example agent reads its order with a signed request (unsigned: 401)', async () => {
    const order = json(outputs[3]!);
    expect(order).toMatchObject({
      id: expect.stringMatching(/^ord_/),
      line_items: [{ quantity: { original: 2, total: 2, fulfilled: 0 }, status: 'processing' }],
    });
    const unsigned = await fetch(`http://127.0.0.1:${port}/orders/${order.id}`, {
      headers: { 'proto-agent': `profile="http://127.0.0.1:${agentPort}/.well-known/proto"`, 'request-id': 'unsigned' },
    });
    expect(unsigned.status).toBe(401);
  });

  it('Follow orders: the simulation ships a unit of the first line with the secret any shell can read', () => {
    const [shipped, events] = outputs[4]!.split(/\n(?=\[)/);
    expect(json(shipped!)).toEqual({ original: 2, total: 2, fulfilled: 1 });
    const tracking = expect.stringContaining(`http://127.0.0.1:${port}/`);
    expect(json(events!)).toMatchObject([{ type: 'shipped', line_items: [{ quantity: 1 }], tracking_url: tracking }]);
  });
});

// The README says its checkout walk works on these too; each has ids of its own (GIDs, numbers).
describe.each([
  { demo: 'demo:rest', ends: 'completed' },
  { demo: 'demo:shopify', ends: 'requires_escalation' }, // handoff: the buyer pays on the store's page
  { demo: 'demo:woocommerce', ends: 'completed' },
])("the README's checkout walk on $demo", { timeout: 300_000 }, ({ demo, ends }) => {
  it(`ends ${ends}, the item found by search`, async () => {
    const [port, agentPort] = (await freePorts(2)) as [number, number];
    const gateway = startProcess('npm', ['run', demo], { cwd: clone.dir, env: cleanEnv({ PORT: String(port) }) });
    let shell: StartedProcess | undefined;
    try {
      await gateway.waitFor(`Server listening at http://127.0.0.1:${port}`, 280_000);
      const script = readmeScript(readmeSections(await clone.readme()), { gateway: port, agent: agentPort }, ['Try it', 'Try a checkout']);
      shell = startProcess('bash', ['-c', script], { cwd: clone.dir, env: cleanEnv({ PORT: String(port) }) });
      await shell.waitFor('::end::', 120_000);
      const walk = shell
        .stdout()
        .split(/::block \d+::\n/)
        .pop()!;
      const [, status] = /"status": "(\w+)",\s*"order"/.exec(walk) ?? [];
      expect(status, shell.output().slice(-3000)).toBe(ends);
    } finally {
      await shell?.stop();
      await gateway.stop();
    }
  });
});
