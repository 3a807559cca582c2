/**
 * The baseline of the benchmark: a bare Fastify server doing the least a JSON API can do.
 * POST /echo answers the 1 KB JSON body it was sent; GET /bare answers a fixed 1 KB JSON document.
 * Run as its own process, as the gateway is, so both pay the same process and socket costs.
 * SPIN_MICROS makes /echo spend that much CPU more before answering: a slower server doing the
 * same I/O (bench/slow-server-charge.ts).
 */
import Fastify from 'fastify';

const document = { padding: 'x'.repeat(1000) };
const spinMs = Number(process.env.SPIN_MICROS ?? 0) / 1000;
const spin = () => {
  const end = performance.now() + spinMs;
  while (performance.now() < end);
};
const app = Fastify({ logger: false });
app.post(
  '/echo',
  spinMs > 0
    ? async (request) => {
        spin();
        return request.body;
      }
    : async (request) => request.body,
);
app.get('/bare', async () => document);

const port = Number(process.env.PORT ?? 0);
await app.listen({ port, host: '127.0.0.1' });
process.stdout.write(`listening ${(app.server.address() as { port: number }).port}\n`);
process.once('SIGTERM', () => void app.close());
