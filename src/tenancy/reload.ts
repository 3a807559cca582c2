/**
 * Tenant configuration reload (SIGHUP, or a change in the tenants folder): every file is read,
 * validated and built again beside the running configuration. Only a complete, valid new set
 * replaces the old one, in one assignment, so a request sees either the old tenants or the
 * new ones; requests already routed finish on the old tenants, whose adapters close after.
 * Anything wrong leaves the old configuration serving and logs why.
 */
import { watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { ConfigError } from '../../adapters/kit/config-error.js';
import { loadTenants } from './load.js';
import type { TenantRegistry } from './registry.js';
import type { TenantDeps } from './tenant.js';

/** Whatever routes requests (TenantRouting): the reload swaps its registry. */
export interface RegistryHolder {
  registry: TenantRegistry;
}

export interface ReloadOptions {
  /** The longest requests on the replaced configuration may run before its adapters close anyway. */
  drainMs: number;
  /** `reason`: why a reload was refused (a configuration error's message; otherwise the error's name). */
  onReload?: (outcome: 'ok' | 'failed', reason?: string) => void;
}

export class TenantReloader {
  /** Reloads run one after the other: two signals in a row never build two registries at once. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly retiring = new Set<Promise<boolean>>();

  constructor(
    private readonly holder: RegistryHolder,
    private readonly configDir: string,
    private readonly deps: TenantDeps,
    private readonly log: FastifyBaseLogger,
    private readonly options: ReloadOptions,
  ) {}

  /** Resolves true when the new configuration serves, false when it was refused. */
  reload(): Promise<boolean> {
    const next = this.queue.then(() => this.reloadOnce());
    this.queue = next;
    return next;
  }

  /** Waits for a running reload and for replaced adapters to close (before shutdown). */
  async settle(): Promise<void> {
    await this.queue;
    await Promise.all(this.retiring);
  }

  private async reloadOnce(): Promise<boolean> {
    let next: TenantRegistry;
    try {
      next = await loadTenants(this.configDir, this.deps);
    } catch (error) {
      const detail = error instanceof ConfigError ? { reason: error.message } : { err: error };
      this.log.error(detail, 'tenant configuration reload refused; the previous configuration keeps serving');
      this.options.onReload?.('failed', error instanceof ConfigError ? error.message : `${(error as Error).name ?? 'error'}: see the log`);
      return false;
    }
    const old = this.holder.registry;
    this.holder.registry = next;
    this.log.info({ tenants: next.tenants.map((t) => t.id) }, 'tenant configuration reloaded');
    this.options.onReload?.('ok');
    const retired = old.retire(this.options.drainMs).then((drained) => {
      if (!drained) this.log.warn({ drain_ms: this.options.drainMs }, 'replaced tenant adapters closed with requests still running');
      return drained;
    });
    this.retiring.add(retired);
    void retired.finally(() => this.retiring.delete(retired));
    return true;
  }
}

/**
 * Calls `onChange` once the tenants folder has been quiet for `debounceMs` after a change
 * (editors and deploy tools write several events per save). If the folder cannot be watched any
 * more, says so and stops: SIGHUP still reloads.
 */
export function watchTenantFiles(configDir: string, onChange: () => void, log: FastifyBaseLogger, debounceMs = 500): FSWatcher {
  let timer: NodeJS.Timeout | undefined;
  const watcher = watch(join(configDir, 'tenants'), () => {
    clearTimeout(timer);
    timer = setTimeout(onChange, debounceMs);
  });
  watcher.on('error', (error) => {
    log.error({ err: error }, 'stopped watching the tenant files; reload with SIGHUP');
    watcher.close();
  });
  watcher.on('close', () => clearTimeout(timer));
  return watcher;
}
