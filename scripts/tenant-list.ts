/**
 * `npm run tenant -- list`: every tenant with its adapter, hosts, finishing mode and health, the
 * health a quick read-only probe of its store (the adapter's `ping`, as the readiness probe asks
 * it) under a short deadline, the tenant's start included. Tenants are built as start-up builds
 * them (tenant-checks.ts).
 */
import { ConfigError } from '../adapters/kit/config-error.js';
import { shownPath, type LoadedTenant } from '../src/config/load-tenants.js';
import type { Io } from './issued-tool.js';
import { openTenant, reason, type CheckContext, type OpenedTenant } from './tenant-checks.js';

interface TenantRow {
  id: string;
  adapter: string;
  hosts: string;
  finishing: string;
  /** `ok`, `down` (the store), `invalid` (the file). */
  health: 'ok' | 'down' | 'invalid';
  detail: string;
}

/**
 * The tenant built, or the deadline's abort: an adapter that reads its store as it starts
 * (WooCommerce, Medusa) has deadlines of its own, longer than a quick probe's. One that starts
 * after the deadline is closed then.
 */
function beforeDeadline(opening: Promise<OpenedTenant>, signal: AbortSignal): Promise<OpenedTenant> {
  const late = () =>
    void opening.then(
      (opened) => opened.tenant.adapter.close?.(),
      () => undefined,
    );
  return new Promise((resolve, reject) => {
    const abort = () => {
      late();
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', abort, { once: true });
    opening.then(
      (opened) => (signal.removeEventListener('abort', abort), resolve(opened)),
      (error: unknown) => (signal.removeEventListener('abort', abort), reject(error as Error)),
    );
  });
}

async function row(
  read: { file: string; loaded?: LoadedTenant; error?: Error },
  alone: boolean,
  context: CheckContext,
): Promise<TenantRow> {
  const { loaded } = read;
  if (!loaded)
    return { id: shownPath(read.file), adapter: '?', hosts: '-', finishing: '-', health: 'invalid', detail: read.error!.message };
  const { config } = loaded;
  const hosts = config.hosts?.join(', ') || config.path_prefix || (alone ? 'every host' : '-');
  const base = { id: config.id, adapter: config.adapter.type, hosts, finishing: config.adapter.finishing ?? '-' };
  const started = performance.now();
  const signal = AbortSignal.timeout(context.timeoutMs);
  let opened;
  try {
    opened = await beforeDeadline(openTenant(loaded, context), signal);
  } catch (error) {
    return { ...base, health: error instanceof ConfigError ? 'invalid' : 'down', detail: reason(error, signal, context.timeoutMs) };
  }
  try {
    await opened.tenant.adapter.ping(signal);
    return { ...base, finishing: opened.tenant.finishing, health: 'ok', detail: `${Math.round(performance.now() - started)} ms` };
  } catch (error) {
    return { ...base, finishing: opened.tenant.finishing, health: 'down', detail: reason(error, signal, context.timeoutMs) };
  } finally {
    await opened.tenant.adapter.close?.();
  }
}

export async function listTenants(
  files: ReadonlyArray<{ file: string; loaded?: LoadedTenant; error?: Error }>,
  context: CheckContext,
  io: Io,
  json: boolean,
): Promise<number> {
  const rows = await Promise.all(files.map((read) => row(read, files.length === 1, context)));
  if (json) {
    io.out(JSON.stringify(rows, null, 2));
    return 0;
  }
  const table = [
    ['ID', 'ADAPTER', 'HOSTS', 'FINISHING', 'HEALTH'],
    ...rows.map((r) => [r.id, r.adapter, r.hosts, r.finishing, `${r.health} (${r.detail})`]),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((cells) => cells[i]!.length)));
  for (const cells of table) io.out(cells.map((cell, i) => (i < cells.length - 1 ? cell.padEnd(widths[i]!) : cell)).join('  '));
  return 0;
}
