/**
 * The small drawings of a tenant's backend over the last minutes, as inline SVG (no script, no
 * image request): a line of each minute's p99 latency, scaled to the window's highest, and a red
 * bar under each minute with failed attempts, as tall as that minute's error rate.
 */
import type { MinuteStats } from '../../observability/backend-health.js';

const WIDTH = 150;
const HEIGHT = 32;
const LINE_HEIGHT = 22;

export function sparkline(minutes: readonly MinuteStats[], label: string): string {
  const step = WIDTH / Math.max(1, minutes.length - 1);
  const highest = Math.max(1, ...minutes.map((m) => m.p99Ms ?? 0));
  const points = minutes
    .map((m, i) =>
      m.p99Ms === undefined ? undefined : `${(i * step).toFixed(1)},${(LINE_HEIGHT - (m.p99Ms / highest) * (LINE_HEIGHT - 2)).toFixed(1)}`,
    )
    .filter((p): p is string => p !== undefined);
  const bars = minutes
    .map((m, i) => {
      if (m.errors === 0) return '';
      const height = Math.max(1, (m.errors / m.calls) * (HEIGHT - LINE_HEIGHT));
      const x = Math.max(0, i * step - 2).toFixed(1);
      return `<rect class="err" x="${x}" y="${(HEIGHT - height).toFixed(1)}" width="4" height="${height.toFixed(1)}"/>`;
    })
    .join('');
  const [x, y] = points[0]?.split(',') ?? [];
  const line = points.length > 1 ? `<polyline class="lat" points="${points.join(' ')}"/>` : x ? `<circle cx="${x}" cy="${y}" r="2"/>` : '';
  const frame = `class="spark" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${label}" preserveAspectRatio="none"`;
  return `<svg ${frame}>${line}${bars}</svg>`;
}
