/**
 * The README's A2A example as a newcomer pastes it (issue 47 §3): "Try it" (the example agent
 * serving its profile, `$AGENT`), then the A2A block (curl, then the stock SDK client reading the
 * agent card) against the gateway `npm start` runs, the documented ports swapped for free ones.
 * Twice: in this folder, with the SDK the lock file installs, and in an empty folder after
 * `npm install @a2a-js/sdk`, the release npm gives a newcomer today.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePorts } from '../helpers/redis-server.js';
import { cleanEnv, freshClone, startProcess, type FreshClone, type StartedProcess } from './helpers/fresh-clone.js';
import { readmeScript, readmeSections } from './helpers/readme.js';

const exec = promisify(execFile);
const SECTION = 'One operation table, four transports';

let clone: FreshClone;
let newcomer: string;
let gateway: StartedProcess;
let ports: { gateway: number; agent: number };

beforeAll(async () => {
  clone = await freshClone();
  newcomer = await mkdtemp(join(tmpdir(), 'proto-a2a-newcomer-'));
  await writeFile(join(newcomer, 'package.json'), '{"private": true}\n');
  const [port, agent] = (await freePorts(2)) as [number, number];
  ports = { gateway: port, agent };
  gateway = startProcess('npm', ['start'], { cwd: clone.dir, env: cleanEnv({ PORT: String(port) }) });
  await Promise.all([
    gateway.waitFor(`Server listening at http://127.0.0.1:${port}`, 280_000),
    exec('npm', ['install', '--no-audit', '--no-fund', '@a2a-js/sdk'], { cwd: newcomer, env: cleanEnv() }),
  ]);
}, 300_000);
afterAll(async () => {
  await gateway?.stop();
  await clone?.remove();
  if (newcomer) await rm(newcomer, { recursive: true, force: true });
});

/** "Try it", then the README's A2A block run in `dir`; its output. */
async function pasteA2a(dir: string): Promise<string> {
  const sections = readmeSections(await clone.readme());
  const block = sections.bySection.get(SECTION)?.find((b) => b.includes('@a2a-js/sdk'));
  if (!block) throw new Error(`README has no A2A block under "${SECTION}"`);
  const pasted = { intro: [], bySection: new Map([...sections.bySection, ['A2A', [`cd '${dir}'`, block]]]) };
  const shell = startProcess('bash', ['-c', readmeScript(pasted, ports, ['Try it', 'A2A'])], { cwd: clone.dir, env: cleanEnv() });
  try {
    await shell.waitFor('::end::', 120_000);
    return shell
      .stdout()
      .split(/::block \d+::\n/)
      .pop()!;
  } catch (error) {
    throw new Error(`the A2A block failed in ${dir}:\n${shell.output().slice(-3000)}`, { cause: error });
  } finally {
    await shell.stop(); // its process group: the example agent's file server too
  }
}

/** The titles the block prints: curl's, one JSON string a line, then the SDK client's list. */
function titles(output: string): { curl: string[]; client: string } {
  const lines = output.trim().split('\n');
  const curl = lines.filter((line) => line.startsWith('"')).map((line) => JSON.parse(line) as string);
  return { curl, client: lines.filter((line) => !line.startsWith('"')).join('\n') };
}

describe("the README's A2A example, pasted", { timeout: 300_000 }, () => {
  it('finds the roses with curl and with the SDK this folder installs', async () => {
    const installed = JSON.parse(await readFile(join(clone.dir, 'node_modules/@a2a-js/sdk/package.json'), 'utf8')).version as string;
    expect(installed).toMatch(/^1\./);
    const { curl, client } = titles(await pasteA2a(clone.dir));
    expect(curl).toContain('Bouquet of Red Roses');
    expect(client).toContain("'Bouquet of Red Roses'");
  });

  it('finds the roses with the SDK `npm install @a2a-js/sdk` gives a newcomer', async () => {
    const installed = JSON.parse(await readFile(join(newcomer, 'node_modules/@a2a-js/sdk/package.json'), 'utf8')).version as string;
    const { client } = titles(await pasteA2a(newcomer));
    expect(client, `@a2a-js/sdk ${installed}`).toContain("'Bouquet of Red Roses'");
  });
});
