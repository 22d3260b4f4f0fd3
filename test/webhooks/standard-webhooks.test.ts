// Standard Webhooks signing as a hook's opt-in (`signature_format`): deliveries that the official `standardwebhooks`
// library's Webhook#verify accepts (a `whsec_` secret, and a plain secret as its bytes), a stable `webhook-id` across
// redeliveries, a wrong secret refused, two signatures while a rotated secret overlaps, the setting echoed in the
// hook's config, and GitHub-shaped 422s for bad values.
import crypto from 'node:crypto';
import type http from 'node:http';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { receiptMark, receiptsSince, signaturesValid, startReceiver, type Receiver } from './receiver.js';

let rcv: Receiver;
let s: TestServer;
let token: string;
/** The server's clock runs `offset` ms ahead of the real one (to let a rotation's overlap end). */
let offset = 0;

beforeAll(async () => {
  rcv = await startReceiver();
  s = await startServer({ clock: { now: () => new Date(Date.now() + offset) } });
  token = (await s.userWithToken('ops')).token;
  await s.createOrg('acme', 'ops');
});
afterAll(async () => {
  await s?.close();
  await rcv?.close();
});

const api = (method: string, path: string, body?: unknown) => s.api(method, path, { token, body });

/** Standard Webhooks' secret form: `whsec_` and the base64 of 24 to 64 random bytes. */
const whsec = () => `whsec_${crypto.randomBytes(32).toString('base64')}`;

/** The headers as the library reads them (a plain record of strings). */
function headersOf(r: { headers: http.IncomingHttpHeaders }): Record<string, string> {
  return Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]));
}

/** Creates an organization hook and returns its id with the ping it got. */
async function hookWith(path: string, config: Record<string, unknown>) {
  const mark = await receiptMark(s, rcv);
  const r = await api('POST', '/orgs/acme/hooks', { name: 'web', config: { url: rcv.url + path, content_type: 'json', ...config } });
  expect(r.status, r.text).toBe(201);
  const [ping] = (await receiptsSince(s, rcv, mark)).filter((x) => x.path === path);
  expect(ping?.payload.zen).toBeTypeOf('string');
  return { id: r.body.id as number, body: r.body, ping };
}

async function pingAndReceive(id: number, path: string) {
  const mark = await receiptMark(s, rcv);
  expect((await api('POST', `/orgs/acme/hooks/${id}/pings`)).status).toBe(204);
  const [got] = (await receiptsSince(s, rcv, mark)).filter((x) => x.path === path);
  expect(got).toBeDefined();
  return got;
}

describe('signature_format "standard"', () => {
  it('signs so that the official library verifies a delivery with a whsec_ secret; the body stays GitHub payload; GitHub signatures are left out', async () => {
    const secret = whsec();
    const { ping } = await hookWith('/sw-whsec', { secret, signature_format: 'standard' });
    const headers = headersOf(ping);
    expect(headers['webhook-id']).toBe(headers['x-service-delivery']);
    expect(headers['webhook-timestamp']).toMatch(/^\d+$/);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const verified = new Webhook(secret).verify(ping.body.toString('utf8'), headers) as Record<string, unknown>;
    // GitHub's ping payload as it is (no Standard Webhooks envelope), and the event in GitHub's header.
    expect(verified).toEqual(JSON.parse(ping.body.toString('utf8')));
    expect(verified).toHaveProperty('hook_id');
    expect(verified).not.toHaveProperty('data');
    expect(headers['x-service-event']).toBe('ping');
    expect(headers['x-hub-signature']).toBeUndefined();
    expect(headers['x-hub-signature-256']).toBeUndefined();
    // Another secret is refused by the library.
    expect(() => new Webhook(whsec()).verify(ping.body.toString('utf8'), headers)).toThrow(WebhookVerificationError);
  });

  it('signs with a plain secret’s bytes ("raw" for the library); "github,standard" carries both schemes; the record shows the headers sent', async () => {
    const secret = 'It’s a Secret to Everybody';
    const { id, ping } = await hookWith('/sw-plain', { secret: 'plain-ascii-secret', signature_format: 'github,standard' });
    const headers = headersOf(ping);
    expect(new Webhook('plain-ascii-secret', { format: 'raw' }).verify(ping.body.toString('utf8'), headers)).toEqual(ping.payload);
    expect(signaturesValid(ping, 'plain-ascii-secret')).toBe(true);
    const deliveries = (await api('GET', `/orgs/acme/hooks/${id}/deliveries`)).body;
    const record = (await api('GET', `/orgs/acme/hooks/${id}/deliveries/${deliveries[0].id}`)).body;
    expect(record.request.headers['webhook-signature']).toBe(headers['webhook-signature']);
    expect(record.request.headers['webhook-id']).toBe(deliveries[0].guid);

    // A secret beyond ASCII: its UTF-8 bytes are the key (given to the library as bytes).
    expect((await api('PATCH', `/orgs/acme/hooks/${id}/config`, { secret })).status).toBe(200);
    const next = await pingAndReceive(id, '/sw-plain');
    const [current] = headersOf(next)['webhook-signature'].split(' ');
    const only = { ...headersOf(next), 'webhook-signature': current };
    expect(new Webhook(Buffer.from(secret, 'utf8'), { format: 'raw' }).verify(next.body.toString('utf8'), only)).toEqual(next.payload);
  });

  it('keeps webhook-id across a redelivery (a new timestamp, still verified)', async () => {
    const secret = whsec();
    const { id, ping } = await hookWith('/sw-redeliver', { secret, signature_format: 'standard' });
    const [first] = (await api('GET', `/orgs/acme/hooks/${id}/deliveries`)).body;
    const mark = await receiptMark(s, rcv);
    expect((await api('POST', `/orgs/acme/hooks/${id}/deliveries/${first.id}/attempts`)).status).toBe(202);
    const [again] = (await receiptsSince(s, rcv, mark)).filter((x) => x.path === '/sw-redeliver');
    expect(headersOf(again)['webhook-id']).toBe(headersOf(ping)['webhook-id']);
    expect(headersOf(again)['webhook-id']).toBe(first.guid);
    expect(new Webhook(secret).verify(again.body.toString('utf8'), headersOf(again))).toEqual(again.payload);
    const list = (await api('GET', `/orgs/acme/hooks/${id}/deliveries`)).body;
    expect(list.map((d: { redelivery: boolean }) => d.redelivery)).toEqual([true, false]);
  });

  it('signs with the old secret too while a rotation overlaps (space-separated, both verified), then with the new one alone', async () => {
    const old = whsec();
    const fresh = whsec();
    const { id } = await hookWith('/sw-rotate', { secret: old, signature_format: 'standard' });
    expect((await api('PATCH', `/orgs/acme/hooks/${id}/config`, { secret: fresh })).status).toBe(200);
    const during = await pingAndReceive(id, '/sw-rotate');
    const signatures = headersOf(during)['webhook-signature'].split(' ');
    expect(signatures).toHaveLength(2);
    expect(new Webhook(fresh).verify(during.body.toString('utf8'), headersOf(during))).toEqual(during.payload);
    expect(new Webhook(old).verify(during.body.toString('utf8'), headersOf(during))).toEqual(during.payload);
    // Each signature alone: the new secret's first, then the old one's.
    const alone = (sig: string) => ({ ...headersOf(during), 'webhook-signature': sig });
    expect(() => new Webhook(fresh).verify(during.body.toString('utf8'), alone(signatures[0]))).not.toThrow();
    expect(() => new Webhook(old).verify(during.body.toString('utf8'), alone(signatures[1]))).not.toThrow();

    // A day later (HUBLET_HOOK_SECRET_ROTATION_MINUTES, 1440 by default) the old secret signs no more.
    offset = 24 * 3_600_000 + 60_000;
    try {
      const after = await pingAndReceive(id, '/sw-rotate');
      const h = headersOf(after);
      const sent = new Date(Number(h['webhook-timestamp']) * 1000);
      expect(h['webhook-signature']).toBe(new Webhook(fresh).sign(h['webhook-id'], sent, after.body.toString('utf8')));
    } finally {
      offset = 0;
    }
  });

  it('is echoed in the hook’s config and GET …/config, and PATCH …/config changes it ("github", the default, is not shown)', async () => {
    const { id, body } = await hookWith('/sw-echo', { secret: whsec(), signature_format: 'standard' });
    expect(body.config.signature_format).toBe('standard');
    expect((await api('GET', `/orgs/acme/hooks/${id}`)).body.config.signature_format).toBe('standard');
    expect((await api('GET', `/orgs/acme/hooks/${id}/config`)).body).toMatchObject({ signature_format: 'standard', secret: '********' });
    const both = await api('PATCH', `/orgs/acme/hooks/${id}/config`, { signature_format: 'github,standard' });
    expect(both.status).toBe(200);
    expect(both.body.signature_format).toBe('github,standard');
    const ping = await pingAndReceive(id, '/sw-echo');
    expect(headersOf(ping)['x-hub-signature-256']).toMatch(/^sha256=/);
    expect(headersOf(ping)['webhook-signature']).toMatch(/^v1,/);
    const back = await api('PATCH', `/orgs/acme/hooks/${id}/config`, { signature_format: 'github' });
    expect(back.body).not.toHaveProperty('signature_format');
    const github = await pingAndReceive(id, '/sw-echo');
    expect(headersOf(github)['webhook-signature']).toBeUndefined();
    expect(headersOf(github)['webhook-id']).toBeUndefined();

    const plain = await hookWith('/sw-default', {});
    expect(plain.body.config).not.toHaveProperty('signature_format');
    // PATCH …/hooks/{id} with a config replaces it whole: the format too.
    const replaced = await api('PATCH', `/orgs/acme/hooks/${id}`, { config: { url: `${rcv.url}/sw-echo`, signature_format: 'standard' } });
    expect(replaced.body.config.signature_format).toBe('standard');
    const whole = await api('PATCH', `/orgs/acme/hooks/${id}`, { config: { url: `${rcv.url}/sw-echo` } });
    expect(whole.body.config).not.toHaveProperty('signature_format');
  });

  it('answers 422 for a signature_format it does not know or a whsec_ secret that is not base64, changing nothing', async () => {
    const before = (await api('GET', '/orgs/acme/hooks?per_page=100')).body.length;
    const bad = await api('POST', '/orgs/acme/hooks', { name: 'web', config: { url: `${rcv.url}/sw-bad`, signature_format: 'both' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      {
        resource: 'Hook',
        code: 'invalid',
        field: 'signature_format',
        message: 'signature_format must be "github", "standard" or "github,standard"',
      },
    ]);
    const notBase64 = await api('POST', '/orgs/acme/hooks', {
      name: 'web',
      config: { url: `${rcv.url}/sw-bad`, secret: 'whsec_not base64!' },
    });
    expect(notBase64.status).toBe(422);
    expect(notBase64.body.errors).toMatchObject([{ resource: 'Hook', code: 'invalid', field: 'secret' }]);
    expect((await api('GET', '/orgs/acme/hooks?per_page=100')).body).toHaveLength(before);

    const { id } = await hookWith('/sw-bad-patch', { signature_format: 'standard' });
    for (const body of [{ signature_format: 'v1' }, { signature_format: 7 }, { signature_format: ['standard'] }]) {
      const r = await api('PATCH', `/orgs/acme/hooks/${id}/config`, body);
      expect(r.status).toBe(422);
      expect(r.body.errors).toMatchObject([{ resource: 'Hook', code: 'invalid', field: 'signature_format' }]);
    }
    const typo = await api('PATCH', `/orgs/acme/hooks/${id}`, { config: { url: `${rcv.url}/sw-bad-patch`, signature_format: 'Standard' } });
    expect(typo.status).toBe(422);
    expect((await api('GET', `/orgs/acme/hooks/${id}/config`)).body.signature_format).toBe('standard');
  });
});
