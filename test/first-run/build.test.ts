/**
 * `npm start`, `npm run keys` and `npm run outbox` compile only what changed: on a fresh clone
 * the first start builds dist/, later starts (and the tools) reuse it as it is, and an edited
 * source is compiled again. Judged by what happens to dist/, never by a stopwatch.
 */
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePorts } from '../helpers/redis-server.js';
import { cleanEnv, freshClone, startProcess, type FreshClone } from './helpers/fresh-clone.js';

describe('building a fresh clone', { timeout: 300_000 }, () => {
  let clone: FreshClone;
  beforeAll(async () => {
    clone = await freshClone();
  });
  afterAll(async () => {
    await clone?.remove();
  });

  const start = async () => {
    const [port] = (await freePorts(1)) as [number];
    const gateway = startProcess('npm', ['start'], { cwd: clone.dir, env: cleanEnv({ PORT: String(port) }) });
    try {
      await gateway.waitFor(`Server listening at http://127.0.0.1:${port}`, 240_000);
    } finally {
      await gateway.stop();
    }
    return gateway.output();
  };

  it('compile on the first npm start, then start, keys and outbox without compiling again', async () => {
    await start();
    const built = await clone.distTimes();
    expect(built.has('dist/src/main.js')).toBe(true);

    await start();
    const keys = await clone.npm(['run', 'keys', '--', 'generate', '--private-only']);
    expect(keys.code, keys.stderr).toBe(0);
    expect(JSON.parse(keys.stdout.trim().split('\n').pop()!)).toMatchObject({ kty: 'EC', d: expect.any(String) });
    const outbox = await clone.npm(['run', 'outbox', '--', 'list']);
    expect(outbox.stderr).toContain('STORE is memory');
    expect(await clone.distTimes()).toEqual(built);
  });

  it('compile an edited source again', async () => {
    const before = await clone.distTimes();
    await appendFile(join(clone.dir, 'src/config/env.ts'), '\n// edited\n');
    const build = await clone.npm(['run', 'build']);
    expect(build.code, build.stderr).toBe(0);
    const after = await clone.distTimes();
    expect(after.get('dist/src/config/env.js')).toBeGreaterThan(before.get('dist/src/config/env.js')!);
  });
});
