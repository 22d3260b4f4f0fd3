// Remembers what a SecretBox opened, so a hot path (a delivery per event per hook) pays AES-GCM once per sealed value.
import type { SecretBox } from './secret-box.js';

/** What can open a sealed value: a SecretBox, or this cache in front of one. */
export interface Opener {
  open(sealed: string, context: string): string;
}

/**
 * A bounded memo of opened values, in memory only (the process needs the plaintext to use it anyway). Keyed by the
 * sealed text itself, so a changed or resealed value is opened afresh; when full it starts over.
 */
export class OpenedCache implements Opener {
  private readonly opened = new Map<string, string>();
  constructor(
    private readonly box: SecretBox,
    private readonly max = 10_000,
  ) {}

  open(sealed: string, context: string): string {
    const key = `${context}\0${sealed}`;
    const hit = this.opened.get(key);
    if (hit !== undefined) return hit;
    const value = this.box.open(sealed, context);
    if (this.opened.size >= this.max) this.opened.clear();
    this.opened.set(key, value);
    return value;
  }
}
