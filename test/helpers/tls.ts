// Makes a throwaway certificate authority and a server certificate for 127.0.0.1 and localhost with the `openssl` tool,
// for tests that serve or reach hublet over HTTPS. A missing `openssl` makes the test fail (it is never skipped).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface TestCertificates {
  /** The CA's certificate (PEM): what a client trusts (undici `connect: { ca }`, GIT_SSL_CAINFO, SSL_CERT_FILE). */
  caFile: string;
  /** The server's certificate (PEM), signed by the CA, for IP:127.0.0.1 and DNS:localhost. */
  certFile: string;
  /** The server certificate's private key (PEM, unencrypted). */
  keyFile: string;
}

async function openssl(args: string[], cwd: string): Promise<void> {
  try {
    await run('openssl', args, { cwd });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT') throw new Error('the `openssl` command-line tool is missing (Debian: apt-get install openssl)');
    throw new Error(`openssl ${args[0]} failed: ${e.stderr ?? e.message}`);
  }
}

/**
 * Writes ca.pem, server.pem and server-key.pem into `dir` (created if missing); valid for a day from now. `extraIps`: more
 * IP addresses the server certificate names besides 127.0.0.1 (a server on another loopback address).
 */
export async function makeTestCertificates(dir: string, extraIps: string[] = []): Promise<TestCertificates> {
  fs.mkdirSync(dir, { recursive: true });
  const caKey = path.join(dir, 'ca-key.pem');
  const caFile = path.join(dir, 'ca.pem');
  const keyFile = path.join(dir, 'server-key.pem');
  const csr = path.join(dir, 'server.csr');
  const certFile = path.join(dir, 'server.pem');
  const ext = path.join(dir, 'server.ext');
  await openssl(
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      caKey,
      '-out',
      caFile,
      '-days',
      '1',
      '-subj',
      '/CN=hublet test CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ],
    dir,
  );
  await openssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', csr, '-subj', '/CN=localhost'], dir);
  fs.writeFileSync(
    ext,
    [
      'basicConstraints=CA:FALSE',
      'keyUsage=critical,digitalSignature,keyEncipherment',
      'extendedKeyUsage=serverAuth',
      `subjectAltName=${['127.0.0.1', ...extraIps].map((ip) => `IP:${ip}`).join(',')},DNS:localhost`,
      '',
    ].join('\n'),
  );
  await openssl(
    [
      'x509',
      '-req',
      '-in',
      csr,
      '-CA',
      caFile,
      '-CAkey',
      caKey,
      '-CAcreateserial',
      '-out',
      certFile,
      '-days',
      '1',
      '-sha256',
      '-extfile',
      ext,
    ],
    dir,
  );
  return { caFile, certFile, keyFile };
}
