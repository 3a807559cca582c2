/**
 * The page's built files (`npm run build:page` writes them to dist/embedded/page/): served by the
 * gateway itself, so the page needs no third-party origin. Only flat file names of the kinds the
 * build produces are served; anything else, a traversal attempt included, is a 404.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

/** A file name without directories: dot-separated parts of letters, digits, `_` and `-`. */
const ASSET_NAME = /^[\w-]+(?:\.[\w-]+)*\.(js|css)$/;

/**
 * The repository root: the nearest directory above this module holding package.json, the same
 * whether the gateway runs from src (tests) or from dist/src (npm start).
 */
function repositoryRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('no package.json above the embedded transport module');
    dir = parent;
  }
  return dir;
}

export const defaultAssetsDir = (): string => join(repositoryRoot(), 'dist', 'embedded', 'page');

export interface Asset {
  type: string;
  body: Buffer;
}

/** The asset named `name`, or undefined when there is no such file to serve. */
export async function readAsset(dir: string, name: string): Promise<Asset | undefined> {
  const match = ASSET_NAME.exec(name);
  if (!match) return undefined;
  try {
    return { type: TYPES[match[1]!]!, body: await readFile(join(dir, name)) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'EISDIR') return undefined;
    throw error;
  }
}
