/**
 * Vitest global setup: compiles the gateway once per test run (the build's own tsconfig, into a
 * temp folder that resolves packages from this checkout) for every test that starts it as a
 * child process, instead of once per test file. Files reach the folder with `inject('gatewayBuild')`.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';

const run = promisify(execFile);

/**
 * Compiles src/ into a temp folder that resolves packages from this checkout, with the files the
 * compiled simulators read beside themselves (the demo store's data, Shopify's schemas) linked in.
 * Returns the folder.
 */
export async function compileGateway(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'proto-build-'));
  await run(process.execPath, [resolve('node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', dir]);
  await writeFile(join(dir, 'package.json'), '{"type":"module"}\n');
  await symlink(resolve('node_modules'), join(dir, 'node_modules'), 'dir');
  await mkdir(join(dir, 'config'));
  await symlink(resolve('config/demo'), join(dir, 'config/demo'), 'dir');
  await symlink(resolve('simulators/shopify/schemas'), join(dir, 'simulators/shopify/schemas'), 'dir');
  return dir;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await compileGateway();
  project.provide('gatewayBuild', dir);
  return () => rm(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    gatewayBuild: string;
  }
}
