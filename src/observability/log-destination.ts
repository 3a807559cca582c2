/**
 * Where the gateway's log lines go unless a caller names a stream: stdout, written
 * asynchronously and gathered up to BUFFER_BYTES per write. A busy gateway then makes one system
 * call and one thread-pool hop for many lines instead of one per request line (bench:stages
 * measured the per-line writes costing a whole create_checkout tens of µs of CPU); 64 KB, not 4 KB,
 * makes that one hop per ~250 access-log lines instead of ~16. A quiet
 * gateway's lines wait at most FLUSH_MS; pino writes out what is left when the process exits.
 * Lines are handed over as bytes: sonic-boom's string mode measures the UTF-8 length of its whole
 * pending buffer on every write (3-4 µs a line at 4 KB pending), its buffer mode keeps a count.
 */
import { pino, type DestinationStream } from 'pino';

const BUFFER_BYTES = 64 * 1024;
const FLUSH_MS = 200;

export interface BufferedLog extends DestinationStream {
  /** Writes out what is buffered and stops the flush timer (the gateway closing). */
  stop(): void;
}

/** `dest`: a file descriptor or path; stdout by default (the benchmarks write to /dev/null). */
export function bufferedLog(dest: number | string = 1): BufferedLog {
  // maxWrite: sonic-boom's largest single write, which must exceed minLength.
  const stream = pino.destination({ dest, sync: false, minLength: BUFFER_BYTES, maxWrite: 2 * BUFFER_BYTES, contentMode: 'buffer' });
  let pending = false;
  const flush = () => {
    if (!pending) return;
    pending = false;
    stream.flush();
  };
  // unref: the flush timer never keeps a stopping process alive.
  const timer = setInterval(flush, FLUSH_MS).unref();
  return {
    write(line: string) {
      pending = true;
      stream.write(Buffer.from(line) as unknown as string); // buffer mode takes bytes; the type names strings only
    },
    stop() {
      clearInterval(timer);
      flush();
    },
  };
}
