// The webhook receiver for the delivery case: node:http in its own process, answering 200 at once and noting when
// each delivery (X-Service-Delivery guid, hook id) arrived; GET /__stats hands the arrivals to the bench.
import { spawn } from 'node:child_process';
import { stopperOf, track, type Served } from './processes.js';

interface Arrival {
  guid: string;
  hookId: string;
  /** Epoch milliseconds (with fractions) when the request's body had arrived. */
  at: number;
}

export interface Receiver extends Served {
  stats(): Promise<{ count: number; arrivals: Arrival[] }>;
}

const SCRIPT = `
  const http = require('node:http');
  const arrivals = [];
  const origin = Date.now() - performance.now();
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/__stats') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ count: arrivals.length, arrivals }));
    }
    req.resume();
    req.on('end', () => {
      arrivals.push({ guid: String(req.headers['x-service-delivery']), hookId: String(req.headers['x-service-hook-id']), at: origin + performance.now() });
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 2 });
      res.end('ok');
    });
  });
  server.keepAliveTimeout = 60000;
  server.listen(0, '127.0.0.1', () => console.log('receiver listening on http://127.0.0.1:' + server.address().port));
`;

export async function startReceiver(): Promise<Receiver> {
  const child = spawn(process.execPath, ['-e', SCRIPT], { stdio: ['ignore', 'pipe', 'pipe'] });
  track(child);
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /receiver listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => reject(new Error(`receiver exited with ${code}: ${out}`)));
  });
  return {
    url,
    pid: child.pid!,
    child,
    stop: stopperOf(child),
    async stats() {
      const res = await fetch(`${url}/__stats`);
      return (await res.json()) as { count: number; arrivals: Arrival[] };
    },
  };
}
