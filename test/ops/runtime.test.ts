/**
 * The runtime: the tests, the gateway and the image run on the Node the project pins (the `node`
 * devDependency that `npm run` puts first on PATH), not on whatever Node the machine has.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const pkg = JSON.parse(read('package.json')) as { engines: { node: string }; devDependencies: Record<string, string> };
const pinned = pkg.devDependencies.node!;
const major = (version: string) => Number(/(\d+)\./.exec(version)?.[1]);

describe('runtime', () => {
  it('the suites run on the pinned Node, which engines accept', () => {
    expect(process.versions.node).toBe(pinned);
    expect(pkg.engines.node).toBe(`>=${major(pinned)}.11`);
  });

  it('the image is built on the same Node line', () => {
    const image = /^ARG NODE_IMAGE=node:(\d+\.\d+)-/m.exec(read('docker/Dockerfile'))?.[1];
    expect(image).toBe(pinned.split('.').slice(0, 2).join('.'));
  });
});
