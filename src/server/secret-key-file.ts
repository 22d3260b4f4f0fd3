// Where the secret key comes from: HUBLET_SECRET_KEY, or `<data>/secret.key` (created 0600 on first start, checked after).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, type Config } from '../config.js';
import { syncDir } from '../git/atomic-file.js';
import { KEY_BYTES, parseKey, parseKeyList, SecretBox } from '../secrets/secret-box.js';

const KEY_FILE = 'secret.key';

export function keyFilePath(dataDir: string): string {
  return path.join(dataDir, KEY_FILE);
}

/** The box of a configuration: its key (from the environment or the key file) and the previous keys that still open. */
export function loadSecretBox(config: Pick<Config, 'dataDir' | 'secretKey' | 'secretKeyPrevious'>): SecretBox {
  // loadConfig has checked both settings' format already.
  const previous = config.secretKeyPrevious ? (parseKeyList(config.secretKeyPrevious) ?? []) : [];
  const fromEnv = config.secretKey ? parseKey(config.secretKey) : undefined;
  return new SecretBox(fromEnv ?? readOrCreateKeyFile(keyFilePath(config.dataDir)), previous);
}

/** Reads the key file, creating it first when there is none. Refuses a file others may read or that holds no key. */
export function readOrCreateKeyFile(file: string): Buffer {
  const problem = (what: string) => new ConfigError([`secret key file ${file}: ${what}`]);
  let st: fs.Stats;
  try {
    if (!fs.existsSync(file)) createKeyFile(file);
    st = fs.statSync(file);
  } catch (err) {
    throw problem(
      `cannot be created or read (${(err as NodeJS.ErrnoException).code ?? String(err)}); set HUBLET_SECRET_KEY instead, or make the data dir writable`,
    );
  }
  if (!st.isFile()) throw problem('is not a regular file');
  if ((st.mode & 0o077) !== 0) {
    throw problem(`mode ${(st.mode & 0o777).toString(8).padStart(4, '0')} lets others read it; it must be 0600 (chmod 600 ${file})`);
  }
  if (st.size > 256) throw problem(`is ${st.size} bytes; it must hold one ${KEY_BYTES}-byte key as base64 or 64 hex digits`);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw problem(`cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  const key = parseKey(text);
  if (!key) throw problem(`does not hold a ${KEY_BYTES}-byte key as base64 or 64 hex digits`);
  return key;
}

/**
 * Writes a new random key atomically: a 0600 temporary file, synced, then hard-linked to its name, which fails if the
 * name exists, so two processes starting at once end up sharing the first one's key (the loser reads it).
 */
function createKeyFile(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  const fd = fs.openSync(tmp, 'wx', 0o600);
  try {
    fs.fchmodSync(fd, 0o600);
    fs.writeSync(fd, `${crypto.randomBytes(KEY_BYTES).toString('base64')}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.linkSync(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    fs.unlinkSync(tmp);
  }
  syncDir(path.dirname(file));
}
