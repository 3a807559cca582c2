import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DOCKER_FILE, dockerDemoTenant, LOCAL_FILE, SHARED_STATE } from '../../scripts/docker-demo-tenant.js';
import { loadTenantFiles } from '../../src/config/load-tenants.js';
import { generatePrivateJwk, loadKeyring } from '../../src/security/keyring.js';
import { testGateway } from '../helpers/gateway.js';

const run = promisify(execFile);
const read = (path: string) => readFileSync(resolve(path), 'utf8');

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  expose?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  stop_grace_period?: string;
  networks?: Record<string, { ipv4_address?: string }> | string[];
}

const compose = parse(read('docker/docker-compose.yml')) as { services: Record<string, Service>; volumes: Record<string, unknown> };
const dockerfile = read('docker/Dockerfile');
const haproxy = read('docker/haproxy.cfg');
const gateways = Object.entries(compose.services).filter(([, s]) => s.build?.dockerfile === 'docker/Dockerfile');

/** Instructions of one stage of the Dockerfile, continuation lines joined. */
function stage(name: string): string[] {
  const lines = dockerfile.replace(/\\\n\s*/g, ' ').split('\n');
  const start = lines.findIndex((l) => new RegExp(`^FROM \\S+ AS ${name}$`).test(l));
  const end = lines.findIndex((l, i) => i > start && l.startsWith('FROM '));
  return lines.slice(start, end < 0 ? undefined : end).filter((l) => l && !l.startsWith('#'));
}

describe('docker/Dockerfile', () => {
  it('builds with the same commands as CI', () => {
    const ci = read('.ci/run');
    const build = stage('build');
    expect(build).toContain('RUN npm ci --no-audit --no-fund');
    expect(build).toContain('RUN npm run build');
    // CI runs npm itself on the pinned Node (as the README's install does); the image's Node is that line already.
    expect(ci).toContain('npx -y -p "node@$NODE_PIN" -- npm');
    expect(ci).toMatch(/^npm_on_24 ci --no-audit --no-fund$/m);
    expect(build.indexOf('RUN npm ci --no-audit --no-fund')).toBeLessThan(build.indexOf('RUN npm run build'));
  });

  it('runs as a non-root user with production dependencies only, the compiled entry point, a health check and SIGTERM', () => {
    const runtime = stage('runtime');
    expect(runtime).toContain('USER node');
    expect(runtime).toContain('COPY --from=deps /app/node_modules ./node_modules');
    expect(stage('deps')).toContain('RUN npm ci --omit=dev --no-audit --no-fund');
    expect(runtime.some((l) => /^HEALTHCHECK .*CMD \["node", "docker\/healthcheck\.mjs"\]$/.test(l))).toBe(true);
    expect(runtime).toContain('STOPSIGNAL SIGTERM');
    const start = (JSON.parse(read('package.json')) as { scripts: { start: string } }).scripts.start;
    expect(runtime).toContain(`CMD ["${start.split(' ').join('", "')}"]`);
  });
});

describe('docker/docker-compose.yml', () => {
  it('runs Redis with append-only persistence, noeviction and a volume', () => {
    const redis = compose.services.redis!;
    expect(redis.command).toEqual(expect.arrayContaining(['redis-server', '--appendonly', 'yes', '--maxmemory-policy', 'noeviction']));
    expect(redis.command![redis.command!.indexOf('--appendonly') + 1]).toBe('yes');
    expect(redis.command![redis.command!.indexOf('--maxmemory-policy') + 1]).toBe('noeviction');
    const [volume] = redis.volumes!;
    expect(volume).toMatch(/^(\S+):\/data$/);
    expect(compose.volumes).toHaveProperty(volume!.split(':')[0]!);
    expect(redis.healthcheck?.test).toEqual(['CMD', 'redis-cli', 'ping']);
  });

  it('runs two gateway replicas on the same Redis with one shared secret, waiting for Redis', () => {
    expect(gateways.map(([name]) => name)).toEqual(['gateway-1', 'gateway-2']);
    for (const [, gateway] of gateways) {
      expect(gateway.environment).toMatchObject({ STORE: 'redis://redis:6379', HOST: '0.0.0.0', PORT: '8080' });
      // Metrics on the admin listener, inside the compose network only: exposed, never published.
      expect(gateway.environment).toMatchObject({ ADMIN_HOST: '0.0.0.0', ADMIN_PORT: '9464' });
      expect(gateway.expose).toEqual(['9464']);
      expect(gateway.ports).toBeUndefined();
      expect(gateway.environment!.GATEWAY_SECRET).toMatch(/^\$\{GATEWAY_SECRET:\?.+\}$/);
      expect(gateway.depends_on?.redis?.condition).toBe('service_healthy');
      expect(Number.parseInt(gateway.stop_grace_period!, 10) * 1000).toBeGreaterThan(Number(gateway.environment!.SHUTDOWN_GRACE_MS));
    }
  });

  it('gives every replica the same signing key through the docker tenant files, which load and sign with it', async () => {
    for (const [, gateway] of gateways) {
      expect(gateway.environment!.DEMO_SIGNING_KEY).toMatch(/^\$\{DEMO_SIGNING_KEY:\?.+\}$/);
      expect(gateway.environment!.CONFIG_DIR).toBe('/app/docker-config');
      expect(gateway.volumes).toContain('./config:/app/docker-config:ro');
    }
    const jwk = await generatePrivateJwk('ES256');
    const [demo] = loadTenantFiles(resolve('docker/config'));
    const keyring = await loadKeyring(demo!.config.signing, demo!.file, resolve('docker/config/tenants'), {
      DEMO_SIGNING_KEY: JSON.stringify(jwk),
    });
    expect(keyring.ephemeral).toBe(false);
    expect(keyring.active?.kid).toBe(jwk.kid);
    // The image holds config/demo at /app/config/demo, where the docker tenant reads its data.
    expect(demo!.config.adapter.settings.data_dir).toBe('/app/config/demo');
    // The same embedded section as the local demo, so `npm run demo:host` frames its pages.
    const [local] = loadTenantFiles(resolve('config'));
    expect(demo!.config.embedded).toEqual(local!.config.embedded);
    expect(demo!.config.embedded?.host_origins).toContain('http://127.0.0.1:9100');
    expect(stage('runtime')).toContain('COPY config ./config');
  });

  it('puts a load balancer in front that checks /readyz on every replica and is the only proxy the replicas trust', () => {
    const lb = compose.services.lb!;
    expect(lb.ports).toEqual(['8080:8080']);
    const [configFile, target] = lb.volumes![0]!.split(':');
    expect(resolve('docker', configFile!)).toBe(resolve('docker/haproxy.cfg'));
    expect(target).toBe('/usr/local/etc/haproxy/haproxy.cfg');
    expect(lb.healthcheck?.test).toContain('http://127.0.0.1:8080/lb-health');
    expect(haproxy).toMatch(/^\s*monitor-uri \/lb-health$/m);
    expect(haproxy).toMatch(/^\s*http-check send meth GET uri \/readyz$/m);
    const servers = [...haproxy.matchAll(/^\s*server (\S+) (\S+):8080$/gm)].map((m) => [m[1], m[2]]);
    expect(servers).toEqual(gateways.map(([name]) => [name, name]));
    for (const [name] of gateways) expect(lb.depends_on?.[name]?.condition).toBe('service_healthy');
    const lbAddress = (lb.networks as Record<string, { ipv4_address?: string }>).gateway?.ipv4_address;
    for (const [, gateway] of gateways) expect(gateway.environment!.TRUST_PROXY).toBe(lbAddress);
  });
});

describe('docker/config/tenants/demo.yaml', () => {
  it('is generated from the local demo: running npm run docker:demo-tenant again changes nothing', async () => {
    expect(read(DOCKER_FILE)).toBe(await dockerDemoTenant(read(LOCAL_FILE)));
  });

  it("is the local demo (A2A, identity linking, simulation) but for base_url, data_dir, signing and the secret's place", () => {
    const [docker] = loadTenantFiles(resolve('docker/config'));
    const [local] = loadTenantFiles(resolve('config'));
    const { base_url, adapter, signing, simulation, ...rest } = docker!.config;
    const { adapter: localAdapter, signing: _localSigning, simulation: localSimulation, ...localRest } = local!.config;
    expect(rest).toEqual(localRest);
    expect(rest).toMatchObject({ a2a: true, identity_linking: { clients: [expect.objectContaining({ client_id: 'example-agent' })] } });
    expect(base_url).toBe(`http://127.0.0.1:${compose.services.lb!.ports![0]!.split(':')[0]}`);
    expect(adapter).toEqual({ ...localAdapter, settings: { ...localAdapter.settings, data_dir: '/app/config/demo' } });
    expect(signing).toEqual({ keys: [{ env: 'DEMO_SIGNING_KEY' }], sign_responses: true, verify_requests: 'optional' });
    expect(simulation).toEqual({ ...localSimulation, secret: { file: `${SHARED_STATE}/demo-simulation-secret` } });
  });

  it('keeps the simulation secret on a volume every replica mounts, which the image lets its user write', () => {
    for (const [, gateway] of gateways) expect(gateway.volumes).toContain(`gateway-state:${SHARED_STATE}`);
    expect(compose.volumes).toHaveProperty('gateway-state');
    const runtime = stage('runtime');
    expect(runtime).toContain(`RUN mkdir ${SHARED_STATE} && chown node:node ${SHARED_STATE}`);
    expect(runtime.indexOf(`RUN mkdir ${SHARED_STATE} && chown node:node ${SHARED_STATE}`)).toBeLessThan(runtime.indexOf('USER node'));
  });
});

describe('docker/healthcheck.mjs', () => {
  it('exits 0 while the gateway answers /healthz and 1 once it is gone', async () => {
    const gw = await testGateway();
    const port = String((await gw.app.listen({ port: 0, host: '127.0.0.1' })).split(':').pop());
    const probe = () => run(process.execPath, ['docker/healthcheck.mjs'], { env: { PORT: port } });
    await expect(probe()).resolves.toBeDefined();
    await gw.close();
    await expect(probe()).rejects.toMatchObject({ code: 1 });
  });
});
