// `hublet serve --metrics-listen` as a real process: the metrics address is printed beside the listening line (port 0
// picks a free one), scrapes count the process's requests, the API's port has no /metrics, a stop closes both, and a
// malformed address or a metrics port in use stops the start with one line (before the admin's token is made).
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { runServe } from '../helpers/cli.js';
import { serveProcesses } from '../helpers/serve-process.js';
import { parseExposition, sampleValue } from './exposition.js';

const serving = serveProcesses();

describe('hublet serve --metrics-listen', { timeout: 120_000 }, () => {
  it('prints the metrics address, serves the scrapes there and not on the API’s port, and stops cleanly', async () => {
    const fresh = await serving.freshDataDir('metrics');
    const p = await serving.serve(['--port', '0', '--metrics-listen', '127.0.0.1:0', '--data', fresh.dir, ...fresh.args]);
    const address = /^hublet metrics listening on (http:\/\/127\.0\.0\.1:(\d+)\/metrics)$/m.exec(p.stdout());
    expect(address, p.stdout()).not.toBeNull();
    const metricsUrl = address![1];
    expect(Number(address![2])).not.toBe(p.port);

    expect((await fetch(`${p.url}/zen`)).status).toBe(200);
    expect((await fetch(`${p.url}/metrics`)).status).toBe(404);
    expect((await fetch(`${p.url}/no/such/thing/here`)).status).toBe(404);
    const res = await fetch(metricsUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const samples = parseExposition(await res.text());
    expect(sampleValue(samples, 'hublet_http_requests_total', { route: '/zen', method: 'GET', status: '200', cache: 'none' })).toBe(1);
    expect(sampleValue(samples, 'hublet_http_requests_total', { route: 'unmatched', method: 'GET', status: '404', cache: 'none' })).toBe(1);
    expect(samples.some((x) => x.name === 'process_resident_memory_bytes')).toBe(true);

    expect(await p.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    await expect(fetch(metricsUrl)).rejects.toThrow();
  });

  it('refuses a malformed address (exit 2) and a metrics port in use (exit 1), each in one line', async () => {
    const bad = await runServe(['--port', '0', '--metrics-listen', '9100'], { env: serving.sandbox.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('metricsListen (HUBLET_METRICS_LISTEN): expected HOST:PORT (e.g. 127.0.0.1:9100, [::1]:9100), got "9100"');

    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const fresh = await serving.freshDataDir('metrics-in-use');
      const inUse = await runServe(['--port', '0', '--metrics-listen', `127.0.0.1:${port}`, '--data', fresh.dir, ...fresh.args], {
        env: serving.sandbox.env,
      });
      expect(inUse.code).toBe(1);
      expect(inUse.stderr).toBe(`hublet: metrics port ${port} on 127.0.0.1 is in use (choose another with --metrics-listen)\n`);
      // Nothing was made for the admin: the port is checked before the one-time token is issued.
      expect(inUse.stdout).not.toContain('hublet listening on');
      expect(inUse.stdout).not.toContain('token');
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });
});
