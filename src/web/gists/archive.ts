// A gist's files at one revision as a download: a tar.gz (ustar, with a pax record for long or non-ASCII names) or a
// zip (stored, UTF-8 names), every file under one folder `<id>-<sha>/`, as GitHub's gist archives are laid out.
import zlib from 'node:zlib';

export interface ArchiveFile {
  filename: string;
  content: Buffer;
}

const BLOCK = 512;

function octal(n: number, width: number): string {
  return `${n.toString(8).padStart(width - 1, '0')}\0`;
}

function tarHeader(name: string, size: number, type: '0' | '5' | 'x', mtime: number): Buffer {
  const h = Buffer.alloc(BLOCK);
  h.write(name.slice(0, 100), 0, 100, 'latin1');
  h.write(octal(type === '5' ? 0o755 : 0o644, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii');
  h.write(octal(0, 8), 116, 'ascii');
  h.write(octal(size, 12), 124, 'ascii');
  h.write(octal(mtime, 12), 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write(type, 156, 'ascii');
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return h;
}

function padded(data: Buffer): Buffer[] {
  const rest = data.length % BLOCK;
  return rest ? [data, Buffer.alloc(BLOCK - rest)] : [data];
}

/** A pax record `<len> path=<name>\n`, whose length counts its own digits. */
function paxPath(name: string): Buffer {
  const body = ` path=${name}\n`;
  let len = Buffer.byteLength(body) + 1;
  while (String(len).length + Buffer.byteLength(body) !== len) len++;
  return Buffer.from(`${len}${body}`);
}

function tarEntry(name: string, content: Buffer, type: '0' | '5', mtime: number): Buffer[] {
  const parts: Buffer[] = [];
  if (Buffer.byteLength(name) > 100 || /[^\x20-\x7e]/.test(name)) {
    const record = paxPath(name);
    parts.push(tarHeader('PaxHeader', record.length, 'x', mtime), ...padded(record));
  }
  parts.push(tarHeader(name, content.length, type, mtime), ...padded(content));
  return parts;
}

/** A gzipped tar of the files under `folder/`. */
export function tarGz(folder: string, files: readonly ArchiveFile[], mtime: Date): Buffer {
  const seconds = Math.floor(mtime.getTime() / 1000);
  const parts = [...tarEntry(`${folder}/`, Buffer.alloc(0), '5', seconds)];
  for (const f of files) parts.push(...tarEntry(`${folder}/${f.filename}`, f.content, '0', seconds));
  parts.push(Buffer.alloc(BLOCK * 2));
  return zlib.gzipSync(Buffer.concat(parts));
}

/** MS-DOS time and date of a moment (UTC). */
function dosTime(at: Date): { time: number; date: number } {
  const year = Math.max(1980, at.getUTCFullYear());
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

interface EntryFields {
  time: number;
  date: number;
  crc: number;
  size: number;
  nameLength: number;
}

/** The 26 bytes a zip local header and its central directory record share (version needed .. extra length), at `at`. */
function writeEntryFields(buf: Buffer, at: number, f: EntryFields): void {
  buf.writeUInt16LE(20, at);
  buf.writeUInt16LE(0x0800, at + 2);
  buf.writeUInt16LE(0, at + 4);
  buf.writeUInt16LE(f.time, at + 6);
  buf.writeUInt16LE(f.date, at + 8);
  buf.writeUInt32LE(f.crc, at + 10);
  buf.writeUInt32LE(f.size, at + 14);
  buf.writeUInt32LE(f.size, at + 18);
  buf.writeUInt16LE(f.nameLength, at + 22);
  buf.writeUInt16LE(0, at + 24);
}

/** A zip of the files under `folder/`, stored (not compressed), names flagged UTF-8. */
export function zip(folder: string, files: readonly ArchiveFile[], mtime: Date): Buffer {
  const { time, date } = dosTime(mtime);
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  const entries = [
    { name: `${folder}/`, content: Buffer.alloc(0) },
    ...files.map((f) => ({ name: `${folder}/${f.filename}`, content: f.content })),
  ];
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const crc = zlib.crc32(e.content) >>> 0;
    const fields = { time, date, crc, size: e.content.length, nameLength: name.length };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    writeEntryFields(local, 4, fields);
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(0x031e, 4);
    writeEntryFields(record, 6, fields);
    record.writeUInt32LE(((e.name.endsWith('/') ? 0o40755 : 0o100644) << 16) >>> 0, 38);
    record.writeUInt32LE(offset, 42);
    locals.push(local, name, e.content);
    central.push(record, name);
    offset += local.length + name.length + e.content.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
