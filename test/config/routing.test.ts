import { describe, expect, it } from 'vitest';
import { TenantRegistry } from '../../src/tenancy/registry.js';
import { assembleTenant } from '../../src/tenancy/tenant.js';
import { baseTenantConfig } from '../helpers/gateway.js';
import { stubAdapter } from '../helpers/stub-adapter.js';

const tenant = (id: string, extra: object) =>
  assembleTenant({ config: { ...baseTenantConfig, id, ...extra }, file: `${id}.yaml` }, stubAdapter());

describe('tenant routing', () => {
  const registry = new TenantRegistry([
    tenant('flowers', { hosts: ['flowers.example'] }),
    tenant('tees', { hosts: ['tees.example:8443'] }),
    tenant('agency-a', { path_prefix: '/shops/a' }),
  ]);

  it('routes by Host, with or without port', () => {
    expect(registry.route('flowers.example', '/carts')?.tenant.id).toBe('flowers');
    expect(registry.route('FLOWERS.example:443', '/carts')?.tenant.id).toBe('flowers');
    expect(registry.route('tees.example:8443', '/carts')?.tenant.id).toBe('tees');
  });

  it('routes by path prefix and strips it', () => {
    expect(registry.route('any.example', '/shops/a/carts/1')).toMatchObject({ url: '/carts/1' });
    expect(registry.route('any.example', '/shops/a')).toMatchObject({ url: '/' });
    expect(registry.route('any.example', '/shops/ab/carts')).toBeNull();
  });

  it('routes nowhere when nothing matches and there are several tenants', () => {
    expect(registry.route('unknown.example', '/carts')).toBeNull();
  });
});
