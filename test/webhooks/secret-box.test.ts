// The sealing module on its own: AES-256-GCM values naming their key, keys in hex or base64, previous keys, the key
// file (created 0600, refused when others may read it or it holds no key) and the settings' checks in loadConfig.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { keyFilePath, loadSecretBox, readOrCreateKeyFile } from '../../src/server/secret-key-file.js';
import { OpenedCache } from '../../src/secrets/opened-cache.js';
import { keyIdOf, parseKey, parseKeyList, SecretBox, SecretKeyError } from '../../src/secrets/secret-box.js';

const dirs: string[] = [];
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-key-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('SecretBox', () => {
  const key = crypto.randomBytes(32);
  const box = new SecretBox(key);

  it('seals into `hsb1:<key id>:<base64url>` with a fresh nonce each time, and opens it again', () => {
    const a = box.seal('It’s a secret to everybody', 'hook.secret');
    const b = box.seal('It’s a secret to everybody', 'hook.secret');
    expect(a).toMatch(new RegExp(`^hsb1:${keyIdOf(key)}:[A-Za-z0-9_-]+$`));
    expect(a).not.toBe(b);
    expect(a).not.toContain('secret to everybody');
    expect(box.open(a, 'hook.secret')).toBe('It’s a secret to everybody');
    expect(box.open(box.seal('', 'hook.secret'), 'hook.secret')).toBe('');
  });

  it('refuses a value moved to another purpose, altered, cut short, or not sealed', () => {
    const sealed = box.seal('pw', 'hook.password');
    expect(() => box.open(sealed, 'hook.secret')).toThrow(SecretKeyError);
    const body = sealed.split(':')[2];
    const flipped = `${sealed.slice(0, sealed.length - body.length)}${body[0] === 'A' ? 'B' : 'A'}${body.slice(1)}`;
    expect(() => box.open(flipped, 'hook.password')).toThrow(/does not authenticate/);
    expect(() => box.open(`hsb1:${keyIdOf(key)}:AAAA`, 'hook.password')).toThrow(/cut short/);
    expect(() => box.open('plain text', 'hook.password')).toThrow(/not a sealed secret/);
  });

  it('opens what previous keys sealed, seals with the current one, and names a missing key without revealing it', () => {
    const old = new SecretBox(key);
    const next = crypto.randomBytes(32);
    const rotated = new SecretBox(next, [key]);
    const sealedOld = old.seal('s', 'hook.secret');
    expect(rotated.open(sealedOld, 'hook.secret')).toBe('s');
    expect(rotated.seal('s', 'hook.secret').startsWith(`hsb1:${keyIdOf(next)}:`)).toBe(true);
    expect(rotated.knows(keyIdOf(key))).toBe(true);
    const stranger = new SecretBox(crypto.randomBytes(32));
    expect(() => stranger.open(sealedOld, 'hook.secret')).toThrow(
      new RegExp(`sealed with secret key ${keyIdOf(key)}, which this server does not have`),
    );
    try {
      stranger.open(sealedOld, 'hook.secret');
    } catch (err) {
      expect(String(err)).not.toContain(key.toString('base64'));
      expect(String(err)).not.toContain(key.toString('hex'));
    }
  });

  it('key ids are stable per key and differ between keys', () => {
    expect(keyIdOf(key)).toBe(keyIdOf(Buffer.from(key)));
    expect(keyIdOf(key)).not.toBe(keyIdOf(crypto.randomBytes(32)));
    expect(keyIdOf(key)).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe('OpenedCache', () => {
  it('opens each sealed value once, a new one afresh, and still refuses what the box refuses', () => {
    const box = new SecretBox(crypto.randomBytes(32));
    let opens = 0;
    const counting = Object.assign(Object.create(box) as SecretBox, {
      open: (v: string, c: string) => {
        opens++;
        return box.open(v, c);
      },
    });
    const cache = new OpenedCache(counting, 2);
    const a = box.seal('a', 'hook.secret');
    const b = box.seal('b', 'hook.secret');
    expect([cache.open(a, 'hook.secret'), cache.open(a, 'hook.secret'), cache.open(b, 'hook.secret')]).toEqual(['a', 'a', 'b']);
    expect(opens).toBe(2);
    expect(() => cache.open(a, 'hook.password')).toThrow(SecretKeyError);
    expect(cache.open(box.seal('c', 'hook.secret'), 'hook.secret')).toBe('c');
    expect(cache.open(a, 'hook.secret')).toBe('a');
  });
});

describe('parseKey', () => {
  const key = crypto.randomBytes(32);
  it('reads 32 bytes as hex, base64 or base64url, padded or not, with whitespace around', () => {
    for (const text of [
      key.toString('hex'),
      key.toString('hex').toUpperCase(),
      key.toString('base64'),
      key.toString('base64url'),
      ` ${key.toString('base64')}\n`,
    ]) {
      expect(parseKey(text)?.equals(key), text).toBe(true);
    }
  });
  it('refuses other lengths and other text', () => {
    for (const text of [
      '',
      'secret',
      crypto.randomBytes(31).toString('base64'),
      crypto.randomBytes(33).toString('base64'),
      crypto.randomBytes(16).toString('hex'),
      `${key.toString('hex')}00`,
    ]) {
      expect(parseKey(text), text).toBeUndefined();
    }
  });
  it('reads a comma-separated list, all or nothing', () => {
    const other = crypto.randomBytes(32);
    expect(parseKeyList(`${key.toString('base64')}, ${other.toString('hex')}`)?.map((k) => k.toString('hex'))).toEqual([
      key.toString('hex'),
      other.toString('hex'),
    ]);
    expect(parseKeyList(`${key.toString('base64')},nope`)).toBeUndefined();
  });
});

describe('the key file', () => {
  it('is created on first use with mode 0600 and one base64 key, then read back unchanged', () => {
    const dir = tempDir();
    const previousUmask = process.umask(0o000);
    let key: Buffer;
    try {
      key = readOrCreateKeyFile(keyFilePath(path.join(dir, 'data')));
    } finally {
      process.umask(previousUmask);
    }
    const file = keyFilePath(path.join(dir, 'data'));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(parseKey(fs.readFileSync(file, 'utf8'))?.equals(key)).toBe(true);
    expect(readOrCreateKeyFile(file).equals(key)).toBe(true);
    expect(fs.readdirSync(path.join(dir, 'data'))).toEqual(['secret.key']);
  });

  it('is refused when group or others may read it, or when it holds no key', () => {
    const dir = tempDir();
    const file = keyFilePath(dir);
    fs.writeFileSync(file, `${crypto.randomBytes(32).toString('base64')}\n`, { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    expect(() => readOrCreateKeyFile(file)).toThrow(ConfigError);
    expect(() => readOrCreateKeyFile(file)).toThrow(/mode 0644 lets others read it; it must be 0600 \(chmod 600 /);
    fs.chmodSync(file, 0o600);
    fs.writeFileSync(file, 'short\n');
    expect(() => readOrCreateKeyFile(file)).toThrow(/does not hold a 32-byte key/);
    fs.writeFileSync(file, 'x'.repeat(4096));
    expect(() => readOrCreateKeyFile(file)).toThrow(/is 4096 bytes/);
  });

  it('names the file and the way out when it cannot be created', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'not-a-dir'), '');
    const file = keyFilePath(path.join(dir, 'not-a-dir'));
    expect(() => readOrCreateKeyFile(file)).toThrow(ConfigError);
    expect(() => readOrCreateKeyFile(file)).toThrow(
      /secret key file .*: cannot be created or read \(E[A-Z]+\); set HUBLET_SECRET_KEY instead, or make the data dir writable/,
    );
  });

  it('is not needed when HUBLET_SECRET_KEY is set (nothing is written)', () => {
    const dir = tempDir();
    const key = crypto.randomBytes(32);
    const box = loadSecretBox(loadConfig({ dataDir: dir }, { HUBLET_SECRET_KEY: key.toString('base64') }));
    expect(box.keyId).toBe(keyIdOf(key));
    expect(fs.existsSync(keyFilePath(dir))).toBe(false);
  });
});

describe('loadConfig', () => {
  it('lists malformed keys with the other problems, without echoing them', () => {
    const bad = 'not-a-key-but-a-credential';
    let error: unknown;
    try {
      loadConfig(
        {},
        { HUBLET_SECRET_KEY: bad, HUBLET_SECRET_KEY_PREVIOUS: `${crypto.randomBytes(32).toString('base64')},${bad}`, HUBLET_PORT: 'x' },
      );
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^secretKey \(HUBLET_SECRET_KEY\): expected 32 bytes as base64 or 64 hex digits/),
        expect.stringMatching(/^secretKeyPrevious \(HUBLET_SECRET_KEY_PREVIOUS\): expected 32 bytes/),
        expect.stringMatching(/^port/),
      ]),
    );
    expect(String(error)).not.toContain(bad);
  });
});
