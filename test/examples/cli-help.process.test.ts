/**
 * Every command-line tool of package.json explains itself: `--help` lists each of its commands
 * with one line of what it does and exits 0, on a machine whose environment the tool would
 * refuse (STORE memory for the outbox, a missing CONFIG_DIR, a PORT that is no port), without
 * starting anything.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';

const exec = promisify(execFile);
const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;

/** npm script -> the compiled entry point it runs (tools, demos, simulators; not the gateway or the benchmarks). */
const TOOLS = Object.entries(scripts).flatMap(([name, command]) => {
  const entry = /node (?:scripts\/run-built\.mjs )?dist\/((?:scripts|simulators|examples)\/\S+\.js)/.exec(command)?.[1];
  return entry ? [{ name, entry }] : [];
});
const HOSTILE = { STORE: 'memory', CONFIG_DIR: '/nonexistent/config', PORT: 'not-a-port', GATEWAY_URL: 'nonsense' };

describe('--help', { timeout: 30_000 }, () => {
  it('covers the tools a newcomer meets', () => {
    expect(TOOLS.map((t) => t.name)).toEqual(
      expect.arrayContaining([
        'agent',
        'keys',
        'outbox',
        'tenant',
        'rest',
        'shopify',
        'woocommerce',
        'demo:rest',
        'demo:shopify',
        'demo:host',
      ]),
    );
  });

  it.each(TOOLS)('npm run $name -- --help: each command and what it does, exit 0', async ({ name, entry }) => {
    const { stdout, stderr } = await exec(process.execPath, [join(inject('gatewayBuild'), entry), '--help'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...HOSTILE },
      timeout: 20_000,
    });
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('usage:');
    const commands = lines.flatMap((line, i) => (line.startsWith(`  npm run ${name}`) ? [[line, lines[i + 1] ?? '']] : []));
    expect(commands.length, stdout).toBeGreaterThan(0);
    for (const [command, does] of commands) expect(does, command).toMatch(/^ {6}\S.{10,}$/);
    expect(stderr).toBe('');
  });

  it('lists every command of a tool (the agent: get-order, serve, link)', async () => {
    const { stdout } = await exec(process.execPath, [join(inject('gatewayBuild'), 'scripts/agent.js'), 'help']);
    expect(stdout.match(/^ {2}npm run agent -- (\S+)/gm)?.map((l) => l.split(' ').pop())).toEqual(['get-order', 'serve', 'link']);
    expect(stdout).toContain('--print-token');
  });
});
