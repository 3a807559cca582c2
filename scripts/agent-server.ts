/**
 * The example agent's file server: docs/examples/agent (its profile) served read-only on
 * loopback, with no access log, so a shell that starts it keeps a clean terminal. Only GET and
 * HEAD of files inside the folder; everything else is 404 or 405.
 */
import { readFile, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';

/** A profile is JSON whatever its name (`.well-known/proto` has no extension). */
const contentType = (path: string) => (['', '.json', '.jwk'].includes(extname(path)) ? 'application/json' : 'application/octet-stream');

export async function serveFolder(folder: string, port: number, host = '127.0.0.1'): Promise<Server> {
  const root = resolve(folder);
  const server = createServer((request, response) => {
    void (async () => {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        response.writeHead(405, { allow: 'GET, HEAD' }).end();
        return;
      }
      let path: string;
      try {
        path = resolve(join(root, decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)));
      } catch {
        response.writeHead(400).end();
        return;
      }
      const file = path.startsWith(root + sep) && (await stat(path).catch(() => undefined))?.isFile();
      if (!file) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
        return;
      }
      const body = await readFile(path);
      response.writeHead(200, { 'content-type': contentType(path), 'content-length': body.length });
      response.end(request.method === 'HEAD' ? undefined : body);
    })().catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((done, fail) => server.once('error', fail).listen(port, host, () => done()));
  return server;
}
