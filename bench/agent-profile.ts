/** The benchmark's agent: serves the example agent profile that every PROTO-Agent header names. */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';

export interface AgentProfile {
  header: string;
  close(): Promise<void>;
}

export async function serveAgentProfile(): Promise<AgentProfile> {
  const profile = await readFile(resolve('docs/examples/agent/.well-known/proto'));
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=300' });
    res.end(profile);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    header: `profile="http://127.0.0.1:${port}/.well-known/proto"`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
