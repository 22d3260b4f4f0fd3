// Reads and checks `serve`'s TLS certificate and key files at start: each problem (a file missing or unreadable, no
// certificate, no usable key, a key that is not the certificate's) is a configuration error naming the file, not a trace.
import crypto from 'node:crypto';
import fs from 'node:fs';
import tls from 'node:tls';
import { ConfigError, type Config } from '../../../config.js';

/** What node's https server needs: the certificate file (chain included) and its key, as read. */
interface TlsFiles {
  cert: Buffer;
  key: Buffer;
}

function read(file: string, setting: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why =
      e.code === 'ENOENT' ? 'no such file' : e.code === 'EACCES' ? 'permission denied' : e.code === 'EISDIR' ? 'is a directory' : e.message;
    throw new ConfigError([`${setting}: cannot read ${file}: ${why}`]);
  }
}

/** The TLS files the config names, read and checked; undefined when the server speaks plain HTTP. */
export function readTlsFiles(config: Readonly<Pick<Config, 'tlsCert' | 'tlsKey'>>): TlsFiles | undefined {
  if (config.tlsCert === undefined || config.tlsKey === undefined) return undefined;
  const certSetting = 'tlsCert (HUBLET_TLS_CERT)';
  const keySetting = 'tlsKey (HUBLET_TLS_KEY)';
  const cert = read(config.tlsCert, certSetting);
  const key = read(config.tlsKey, keySetting);
  let certificate: crypto.X509Certificate;
  try {
    certificate = new crypto.X509Certificate(cert);
  } catch {
    throw new ConfigError([`${certSetting}: ${config.tlsCert} holds no certificate (expected PEM: -----BEGIN CERTIFICATE-----)`]);
  }
  let privateKey: crypto.KeyObject;
  try {
    privateKey = crypto.createPrivateKey(key);
  } catch {
    throw new ConfigError([`${keySetting}: ${config.tlsKey} holds no usable private key (expected an unencrypted PEM key)`]);
  }
  if (!certificate.checkPrivateKey(privateKey)) {
    throw new ConfigError([`${keySetting}: ${config.tlsKey} is not the private key of the certificate in ${config.tlsCert}`]);
  }
  try {
    // What the https server will do with them (the chain after the first certificate included).
    tls.createSecureContext({ cert, key });
  } catch (err) {
    throw new ConfigError([`${certSetting}: ${config.tlsCert} with ${config.tlsKey}: ${(err as Error).message}`]);
  }
  return { cert, key };
}
