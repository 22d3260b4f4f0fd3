// A bare repository's object files, walked soundly while git and hublet keep writing to it: loose objects first (one
// that is gone has moved into a pack), then packs, each with its index or not at all, the folder listed again when a
// pack vanished mid-way (a repack's new pack is already there). Temporary files, `.keep` markers and receive-pack's
// quarantine (`objects/incoming-*`) are left out. Backups copy objects with it (backup/git-copy.ts), forks link them
// (repos/fork-data.ts); the caller says how one file is placed.
import fs from 'node:fs';
import path from 'node:path';

const LOOSE_DIR = /^[0-9a-f]{2}$/;
const LOOSE_FILE = /^[0-9a-f]{38,62}$/;
const PACK_FILE = /^(pack-[0-9a-f]{40,64})\.(pack|idx|rev)$/;

/** Places the file `from` at `to` (`rel`: its path below the folder walked); false when `from` is gone. */
export type PlaceFile = (from: string, to: string, rel: string) => boolean;

/** A folder's entries; none when it does not exist. */
export function listDir(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/** Each loose object of the objects folder `src`, into the same fan-out folder under `dest`. */
export function placeLooseObjects(src: string, dest: string, place: PlaceFile): void {
  for (const d of listDir(src)) {
    if (!d.isDirectory() || !LOOSE_DIR.test(d.name)) continue;
    const names = listDir(path.join(src, d.name)).filter((f) => f.isFile() && LOOSE_FILE.test(f.name));
    if (!names.length) continue;
    fs.mkdirSync(path.join(dest, d.name), { recursive: true });
    for (const f of names) place(path.join(src, d.name, f.name), path.join(dest, d.name, f.name), `${d.name}/${f.name}`);
  }
}

/**
 * Each pack of the pack folder `src` with its index (and reverse index, optional: git makes one when it needs it), or
 * not at all: a pack that vanishes mid-way was replaced by a repack, so its files are dropped from `dest` and the
 * folder is listed again.
 */
export function placePacks(src: string, dest: string, place: PlaceFile): void {
  const done = new Set<string>();
  for (let round = 0; ; round++) {
    const packs = new Map<string, string[]>();
    for (const e of listDir(src)) {
      const m = e.isFile() ? PACK_FILE.exec(e.name) : null;
      if (m) packs.set(m[1], [...(packs.get(m[1]) ?? []), m[2]]);
    }
    let vanished = false;
    for (const [name, kinds] of packs) {
      // Without both its .pack and its .idx a pack is not usable yet (being written) or any more (being deleted).
      if (done.has(name) || !kinds.includes('pack') || !kinds.includes('idx')) continue;
      fs.mkdirSync(dest, { recursive: true });
      const placed: string[] = [];
      let whole = true;
      for (const kind of ['pack', 'idx', ...(kinds.includes('rev') ? ['rev'] : [])]) {
        const file = `${name}.${kind}`;
        if (place(path.join(src, file), path.join(dest, file), file)) placed.push(file);
        else if (kind !== 'rev') {
          whole = false;
          break;
        }
      }
      if (whole) done.add(name);
      else {
        for (const file of placed) fs.rmSync(path.join(dest, file), { force: true });
        vanished = true;
      }
    }
    if (!vanished) return;
    if (round >= 20) throw new Error(`the packs of ${src} kept changing while they were read`);
  }
}
