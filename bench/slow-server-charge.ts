/**
 * What the machine charges a server for being slow: the bench's baseline echo made to spin a fixed
 * CPU time per request before answering, then driven as `npm run bench` drives every row (50
 * connections, as many requests as it answers). A slower server answers fewer requests per wake-up
 * of its event loop and of its clients, so each answer carries more of the kernel's and the
 * runtime's fixed costs; the excess of CPU per request over echo + spin is that charge. The CPU
 * ratios of `npm run bench` compare the gateway with the unspun echo, so a gateway that answers
 * 6,000 requests a second pays this charge in its figure and the echo at 40,000 does not.
 *
 * `npm run build && npm exec -- node dist/bench/slow-server-charge.js [spin µs ...]` (default 0 60 130 250).
 */
import { measure, type DriveSettings } from './drive.js';
import { startBaseline } from './processes.js';

const settings: DriveSettings = { seconds: 5, warmupSeconds: 2, connections: 50 };
const call = { method: 'POST' as const, path: '/echo', body: { padding: 'x'.repeat(1000) } };
const spins = process.argv.slice(2).map(Number);

async function main(): Promise<void> {
  let unspun: number | undefined;
  process.stdout.write('| spin µs | req/s | CPU µs per request | beyond echo + spin |\n|---:|---:|---:|---:|\n');
  for (const spin of spins.length > 0 ? spins : [0, 60, 130, 250]) {
    const server = await startBaseline(spin);
    try {
      const m = await measure(server, call, settings);
      if (m.failures > 0) throw new Error(`${m.failures} failed requests at spin ${spin}`);
      unspun ??= m.cpuMicros - spin;
      const beyond = m.cpuMicros - spin - unspun;
      process.stdout.write(`| ${spin} | ${m.reqPerSec.toFixed(0)} | ${m.cpuMicros.toFixed(1)} | ${beyond.toFixed(1)} |\n`);
    } finally {
      await server.stop();
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`slow-server-charge failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
