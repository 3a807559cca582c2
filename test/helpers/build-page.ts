/**
 * Vitest global setup of the browser suites: builds the embedded page once (`npm run build:page`:
 * src/embedded/page to dist/embedded/page, where the gateway serves it from), incrementally.
 */
import { execFile } from 'node:child_process';
import { copyFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export default async function setup(): Promise<void> {
  await run(process.execPath, [resolve('node_modules/typescript/bin/tsc'), '-b', 'src/embedded/page/tsconfig.json']);
  await copyFile('src/embedded/page/embedded.css', 'dist/embedded/page/embedded.css');
}
