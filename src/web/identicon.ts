// Identicons, the avatar of every account until avatars can be uploaded: as GitHub's, a 5×5 grid mirrored left to
// right, its cells and colour taken from a hash of the account's id (stable across renames), drawn as a PNG (encoded
// here with node:zlib: a palette of two colours, one filter byte a row) at the size asked for.
import crypto from 'node:crypto';
import zlib from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const BACKGROUND = [0xf0, 0xf0, 0xf0];

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(data, zlib.crc32(type)) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** The 5×5 grid (true: coloured) and the colour of an account. */
function pattern(accountId: number): { cells: boolean[][]; colour: number[] } {
  const hash = crypto.hash('sha256', `hublet identicon ${accountId}`, 'buffer');
  const cells: boolean[][] = [];
  for (let row = 0; row < 5; row++) {
    const left = [0, 1, 2].map((col) => (hash[row * 3 + col] & 1) === 1);
    cells.push([left[0], left[1], left[2], left[1], left[0]]);
  }
  // A hue from the hash, fairly saturated and mid-light, as GitHub's.
  const hue = (hash.readUInt16BE(20) % 360) / 360;
  const [s, l] = [0.45 + (hash[22] % 20) / 100, 0.45 + (hash[23] % 15) / 100];
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const channel = (t: number) => {
    const x = (t + 1) % 1;
    const v = x < 1 / 6 ? p + (q - p) * 6 * x : x < 1 / 2 ? q : x < 2 / 3 ? p + (q - p) * (2 / 3 - x) * 6 : p;
    return Math.round(v * 255);
  };
  return { cells, colour: [channel(hue + 1 / 3), channel(hue), channel(hue - 1 / 3)] };
}

/** The account's identicon as a `size`×`size` PNG (a margin of half a cell around the grid). */
export function identiconPng(accountId: number, size: number): Buffer {
  const { cells, colour } = pattern(accountId);
  const cell = size / 6;
  const margin = cell / 2;
  const rows = Buffer.alloc(size * (size + 1));
  for (let y = 0; y < size; y++) {
    const row = Math.floor((y - margin) / cell);
    for (let x = 0; x < size; x++) {
      const col = Math.floor((x - margin) / cell);
      const on = row >= 0 && row < 5 && col >= 0 && col < 5 && cells[row][col];
      rows[y * (size + 1) + 1 + x] = on ? 1 : 0;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 3, 0, 0, 0], 8); // 8-bit palette indices, no interlace
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('PLTE', Buffer.from([...BACKGROUND, ...colour])),
    chunk('IDAT', zlib.deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
