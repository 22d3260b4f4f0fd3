// Where deliveries may go: link-local and cloud-metadata destinations are always refused (checked when connecting, after
// DNS), the allowed-hosts setting narrows the rest, and insecure_ssl skips certificate checks for that hook only.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { startReceiver, type Receiver } from './receiver.js';

let rcv: Receiver;
beforeAll(async () => {
  rcv = await startReceiver();
});
afterAll(async () => rcv?.close());

interface Site {
  s: TestServer;
  token: string;
  /** Creates a hook on `url` and returns its first delivery once recorded. */
  firstDelivery(url: string, config?: Record<string, unknown>): Promise<{ status: string; status_code: number }>;
}

async function site(config: Record<string, string | number> = {}): Promise<Site> {
  const s = await startServer({ config });
  const o = await s.userWithToken('netops');
  await s.createOrg('net', 'netops');
  return {
    s,
    token: o.token,
    async firstDelivery(url, extra = {}) {
      const h = await s.api('POST', '/orgs/net/hooks', { token: o.token, body: { name: 'web', config: { url, ...extra } } });
      if (h.status !== 201) throw new Error(`${h.status} ${h.text}`);
      await s.app.hublet.jobs.idle();
      const list = await s.api('GET', `/orgs/net/hooks/${h.body.id}/deliveries`, { token: o.token });
      return list.body[0];
    },
  };
}

let n = 0;
const fresh = () => `/n/${++n}`;
const hits = (p: string) => rcv.received.filter((r) => r.path === p).length;

describe('the fixed refusals (no setting)', () => {
  let x: Site;
  beforeAll(async () => {
    x = await site();
  });
  afterAll(async () => x?.s.close());

  it('allows loopback receivers by default', async () => {
    const p = fresh();
    expect(await x.firstDelivery(`${rcv.url}${p}`)).toMatchObject({ status: 'OK', status_code: 200 });
    expect(hits(p)).toBe(1);
  });

  it('refuses link-local and cloud-metadata destinations before connecting, with a clear status', async () => {
    const cases: [string, RegExp][] = [
      ['http://169.254.169.254/latest/meta-data/', /^Destination refused: 169\.254\.169\.254 is a cloud metadata address$/],
      ['http://169.254.10.20:8080/', /^Destination refused: 169\.254\.10\.20 is a link-local address$/],
      ['http://[fe80::1]/', /^Destination refused: fe80::1 is a link-local address$/],
      ['http://[fd00:ec2::254]/', /^Destination refused: fd00:ec2::254 is a cloud metadata address$/],
      ['http://100.100.100.200/', /^Destination refused: 100\.100\.100\.200 is a cloud metadata address$/],
      ['http://[::ffff:169.254.169.254]/', /^Destination refused: .*cloud metadata address$/],
      [
        'http://metadata.google.internal/computeMetadata/v1/',
        /^Destination refused: metadata\.google\.internal is a cloud metadata service$/,
      ],
      [`http://0.0.0.0:${rcv.port}/zero`, /^Destination refused: 0\.0\.0\.0 is an unspecified address$/],
    ];
    for (const [url, status] of cases) {
      const d = await x.firstDelivery(url);
      expect(d.status, url).toMatch(status);
      expect(d.status_code).toBe(0);
    }
    // 0.0.0.0 would have reached the receiver on this machine: it was never asked.
    expect(hits('/zero')).toBe(0);
  });
});

describe('--hook-allowed-hosts', () => {
  it('external: loopback receivers are refused, by address and by name', async () => {
    const x = await site({ hookAllowedHosts: 'external' });
    try {
      const a = fresh();
      const b = fresh();
      expect((await x.firstDelivery(`${rcv.url}${a}`)).status).toBe(
        'Destination refused: 127.0.0.1 (loopback) is not in the allowed hosts (external)',
      );
      expect((await x.firstDelivery(`http://localhost:${rcv.port}${b}`)).status).toMatch(
        /^Destination refused: (127\.0\.0\.1|::1) \(loopback\) is not in the allowed hosts \(external\)$/,
      );
      expect(hits(a) + hits(b)).toBe(0);
    } finally {
      await x.s.close();
    }
  });

  it('loopback, a CIDR range or a host name lets the receiver through; the fixed refusals still hold', async () => {
    for (const setting of ['loopback', 'external,127.0.0.0/8', 'localhost, *.example.test']) {
      const x = await site({ hookAllowedHosts: setting });
      try {
        const p = fresh();
        const viaName = setting.includes('localhost');
        const d = await x.firstDelivery(`http://${viaName ? 'localhost' : '127.0.0.1'}:${rcv.port}${p}`);
        expect(d.status, setting).toBe('OK');
        expect(hits(p)).toBe(1);
        if (viaName) {
          // The name is allowed, not the address it stands for.
          expect((await x.firstDelivery(`${rcv.url}${fresh()}`)).status).toMatch(
            /^Destination refused: 127\.0\.0\.1 \(loopback\) is not in the allowed hosts/,
          );
        }
        expect((await x.firstDelivery('http://169.254.169.254/')).status).toMatch(/^Destination refused: /);
      } finally {
        await x.s.close();
      }
    }
  });

  it('a setting that does not parse stops the configuration with the problem named', () => {
    expect(() => loadConfig({ hookAllowedHosts: 'external, 10.0.0.0/99' }, {})).toThrow(ConfigError);
    expect(() => loadConfig({}, { HUBLET_HOOK_ALLOWED_HOSTS: 'intranet!' })).toThrow(
      /hookAllowedHosts \(HUBLET_HOOK_ALLOWED_HOSTS\): "intranet!" is not/,
    );
    expect(
      loadConfig({ hookAllowedHosts: 'private loopback 10.0.0.0/8 ::1 hooks.example.com *.corp.example' }, {}).hookAllowedHosts,
    ).toContain('private');
  });
});

describe('insecure_ssl', () => {
  let dir: string;
  let tls: Receiver;
  let x: Site;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    tls = await startReceiver({
      tls: { key: fs.readFileSync(path.join(dir, 'key.pem'), 'utf8'), cert: fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8') },
    });
    x = await site();
  });
  afterAll(async () => {
    await x?.s.close();
    await tls?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('verifies certificates unless the hook says insecure_ssl 1, and only for that hook', async () => {
    expect(await x.firstDelivery(`${tls.url}/verified`)).toMatchObject({
      status: 'Peer certificate cannot be authenticated with given CA certificates',
      status_code: 0,
    });
    expect(await x.firstDelivery(`${tls.url}/insecure`, { insecure_ssl: '1' })).toMatchObject({ status: 'OK', status_code: 200 });
    expect(await x.firstDelivery(`${tls.url}/verified-again`, { insecure_ssl: 0 })).toMatchObject({
      status: 'Peer certificate cannot be authenticated with given CA certificates',
    });
    expect(tls.received.map((r) => r.path)).toEqual(['/insecure']);
  });
});
