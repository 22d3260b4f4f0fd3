// A status line redrawn in place on a terminal (silent when stderr is not one), and byte counts for people.
import type { IO } from '../../io.js';

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(1)} ${units[i]}`;
}

export class Progress {
  private last = 0;
  private shown = false;
  constructor(private readonly io: IO) {}

  update(line: string, force = false): void {
    if (!this.io.stderrIsTTY) return;
    const now = Date.now();
    if (!force && now - this.last < 100) return;
    this.last = now;
    this.shown = true;
    this.io.stderr.write(`\r\x1b[2K${line}`);
  }

  done(): void {
    if (this.shown) this.io.stderr.write('\n');
    this.shown = false;
  }
}
