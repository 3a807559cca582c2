/**
 * Where a tenant is reached when its file names no `base_url`: the gateway's BASE_URL, else the
 * address it listens on as seen from this machine (a wildcard listener is reached on loopback).
 * The file's relative URLs (`links[].url`, adapter settings named `*_url`) resolve against it, so
 * the demo's links follow PORT too.
 */
import { isIP } from 'node:net';
import { ConfigError } from '../../adapters/kit/config-error.js';
import type { TenantConfig } from './tenant-schema.js';

export function listenOrigin(host: string, port: number, tls: boolean): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `${tls ? 'https' : 'http'}://${isIP(reachable) === 6 ? `[${reachable}]` : reachable}:${port}`;
}

const relative = (value: unknown): value is string => typeof value === 'string' && /^\/(?!\/)/.test(value);

export function withBaseUrl(config: TenantConfig, fallback: string | undefined, where: string): TenantConfig & { base_url: string } {
  const baseUrl = config.base_url ?? fallback;
  if (baseUrl === undefined) {
    throw new ConfigError(`${where}: $.base_url is required (no BASE_URL and no listening address to derive it from)`);
  }
  const resolve = <T>(value: T): T | string => (relative(value) ? `${baseUrl}${value}` : value);
  const settings = Object.fromEntries(
    Object.entries(config.adapter.settings).map(([name, value]) => [name, name.endsWith('_url') ? resolve(value) : value]),
  );
  return {
    ...config,
    base_url: baseUrl,
    adapter: { ...config.adapter, settings },
    ...(config.links && { links: config.links.map((link) => ({ ...link, url: resolve(link.url) })) }),
  };
}
