import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { settingsFromEnv } from '../../src/config/env.js';

describe('operations settings from the environment', () => {
  it('serve plain HTTP, trust no proxy and watch nothing by default', () => {
    const settings = settingsFromEnv({});
    expect(settings.tls).toBeUndefined();
    expect(settings.trustProxy).toBe(false);
    expect(settings.configWatch).toBe(false);
  });

  it('serve HTTPS with a certificate and key, mutual TLS with a client CA', () => {
    expect(settingsFromEnv({ TLS_CERT_FILE: 'c.pem', TLS_KEY_FILE: 'k.pem' }).tls).toEqual({
      certFile: resolve('c.pem'),
      keyFile: resolve('k.pem'),
    });
    expect(settingsFromEnv({ TLS_CERT_FILE: 'c.pem', TLS_KEY_FILE: 'k.pem', TLS_CA_FILE: 'ca.pem' }).tls).toMatchObject({
      caFile: resolve('ca.pem'),
      clientCert: 'request',
    });
    expect(
      settingsFromEnv({ TLS_CERT_FILE: 'c.pem', TLS_KEY_FILE: 'k.pem', TLS_CA_FILE: 'ca.pem', TLS_CLIENT_CERT: 'require' }).tls,
    ).toMatchObject({ clientCert: 'require' });
  });

  it('refuse TLS settings that cannot work together', () => {
    expect(() => settingsFromEnv({ TLS_CERT_FILE: 'c.pem' })).toThrow('TLS_CERT_FILE and TLS_KEY_FILE go together');
    expect(() => settingsFromEnv({ TLS_CA_FILE: 'ca.pem' })).toThrow('need TLS_CERT_FILE and TLS_KEY_FILE');
    expect(() => settingsFromEnv({ TLS_CERT_FILE: 'c.pem', TLS_KEY_FILE: 'k.pem', TLS_CLIENT_CERT: 'require' })).toThrow(
      'TLS_CLIENT_CERT needs TLS_CA_FILE',
    );
    expect(() => settingsFromEnv({ TLS_CERT_FILE: 'c.pem', TLS_KEY_FILE: 'k.pem', TLS_CA_FILE: 'ca.pem', TLS_CLIENT_CERT: 'yes' })).toThrow(
      '"request" or "require"',
    );
  });

  it('read TRUST_PROXY as true or a list of addresses, CIDRs and proxy-addr names', () => {
    expect(settingsFromEnv({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(settingsFromEnv({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(settingsFromEnv({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.1,fd00::/8, loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.0.2.1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('refuse a TRUST_PROXY that would trust the wrong peers', () => {
    expect(() => settingsFromEnv({ TRUST_PROXY: '2' })).toThrow('hop counts are not supported');
    expect(() => settingsFromEnv({ TRUST_PROXY: 'proxy.internal' })).toThrow('"proxy.internal" is not an address');
    expect(() => settingsFromEnv({ TRUST_PROXY: '10.0.0.0/33' })).toThrow('"10.0.0.0/33" is not an address');
  });

  it('read CONFIG_WATCH as a boolean', () => {
    expect(settingsFromEnv({ CONFIG_WATCH: 'true' }).configWatch).toBe(true);
    expect(() => settingsFromEnv({ CONFIG_WATCH: 'yes' })).toThrow('CONFIG_WATCH must be "true" or "false"');
  });
});
