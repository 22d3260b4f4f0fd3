// The webhook settings pages as their owners use them (WebClient, a real receiver on 127.0.0.1): an organization's
// owner lists, adds (refused fields shown next to them, what was typed kept), edits and deletes hooks; the secret never
// appears in a page; members and strangers get the not-found page, visitors are sent to sign in; a repository's admin
// and the site admins (global hooks) have the same pages; Ping, the deliveries (headers, signatures, payload),
// Redeliver, the failed filter and "Redeliver failed since …" reach the receiver as the API's would; "Signature format"
// sets the config's signature_format as the API does (a forged value refused under the field, CSRF as for every form).
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { WebClient, type WebResponse } from '../helpers/web-client.js';
import { signaturesValid, startReceiver, type Received, type Receiver } from '../webhooks/receiver.js';

const PASSWORD = 'correct horse battery staple 42';
const SECRET = 'It’s a secret to everybody 7f3a';
const ORG = '/organizations/Acme/settings/hooks';
let s: TestServer;
let rcv: Receiver;
const web: Record<string, WebClient> = {};
/** Every page body a signed-in person was shown (the secret must be in none). */
const seen: string[] = [];

async function signedIn(login: string): Promise<WebClient> {
  const c = new WebClient(s.url);
  const get = c.get.bind(c);
  const post = c.post.bind(c);
  const keep = (r: WebResponse) => {
    seen.push(r.text);
    return r;
  };
  c.get = async (...a) => keep(await get(...a));
  c.post = async (...a) => keep(await post(...a));
  expect((await c.signIn(login, PASSWORD)).status).toBe(303);
  return c;
}

const settled = () => s.app.hublet.jobs.idle();
const onPath = (path: string) => (r: Received) => r.path === path;
const hooks = () => s.db.selectFrom('hooks').selectAll().orderBy('id').execute();
const deliveries = (hookId: number) => s.db.selectFrom('hook_deliveries').selectAll().where('hook_id', '=', hookId).orderBy('id').execute();

/** The fields of a valid "Add webhook" form. */
function hookForm(path: string, extra: Record<string, string | string[]> = {}): Record<string, string | string[]> {
  return {
    url: `${rcv.url}${path}`,
    content_type: 'application/json',
    secret: SECRET,
    insecure_ssl: '0',
    event_choice: 'push',
    active: '1',
    ...extra,
  };
}

beforeAll(async () => {
  s = await startServer();
  rcv = await startReceiver();
  rcv.answer((r) => (r.path.startsWith('/fail') ? { status: 500, body: 'down <b>for</b> now' } : { status: 200, body: 'thanks' }));
  for (const login of ['octo', 'mona', 'eve', 'alice']) await s.createUser(login, { password: PASSWORD });
  await s.createUser('root', { password: PASSWORD, siteAdmin: true });
  await s.createOrg('Acme', 'octo');
  await s.addMember('Acme', 'mona');
  const alice = await s.createToken('alice', { scopes: ['repo'] });
  expect((await s.api('POST', '/user/repos', { token: alice, body: { name: 'tools' } })).status).toBe(201);
  for (const login of ['octo', 'mona', 'eve', 'alice', 'root']) web[login] = await signedIn(login);
}, 60_000);
afterAll(async () => {
  await s?.close();
  await rcv?.close();
});

describe('who may see the pages', () => {
  let hookId: number;
  beforeAll(async () => {
    await web.octo.get(`${ORG}/new`);
    const r = await web.octo.post(ORG, hookForm('/who'));
    expect(r.status).toBe(303);
    hookId = (await hooks()).at(-1)!.id;
    await settled();
  });

  it('sends a visitor to sign in, coming back to the page; a visitor’s post changes nothing', async () => {
    const visitor = new WebClient(s.url);
    for (const path of [
      ORG,
      `${ORG}/new`,
      `${ORG}/${hookId}`,
      `${ORG}/${hookId}/deliveries`,
      '/admin/settings/hooks',
      '/alice/tools/settings/hooks',
    ]) {
      const r = await visitor.get(path);
      expect([path, r.status]).toEqual([path, 303]);
      expect(r.location).toBe(`${s.url}/login?return_to=${encodeURIComponent(path)}`);
    }
    await visitor.get('/login');
    const before = await hooks();
    const post = await visitor.post(ORG, hookForm('/visitor'));
    expect(post.status).toBe(303);
    expect(post.location).toBe(`${s.url}/login?return_to=${encodeURIComponent(`${ORG}/new`)}`);
    expect(await hooks()).toEqual(before);
  });

  it('answers a member, a stranger and a repository’s non-admin with the not-found page, and changes nothing', async () => {
    const before = await hooks();
    for (const who of ['mona', 'eve']) {
      for (const path of [
        ORG,
        `${ORG}/new`,
        `${ORG}/${hookId}`,
        `${ORG}/${hookId}/delete`,
        `${ORG}/${hookId}/deliveries`,
        '/alice/tools/settings/hooks',
        '/admin/settings/hooks',
      ]) {
        const r = await web[who].get(path);
        expect([who, path, r.status]).toEqual([who, path, 404]);
        expect(r.text).toContain('Page not found');
      }
      await web[who].get('/settings/tokens');
      for (const path of [ORG, `${ORG}/${hookId}`, `${ORG}/${hookId}/delete`, `${ORG}/${hookId}/pings`]) {
        const r = await web[who].post(path, hookForm('/intruder'));
        expect([who, path, r.status]).toEqual([who, path, 404]);
      }
    }
    await settled();
    expect(await hooks()).toEqual(before);
    expect(rcv.received.filter(onPath('/intruder'))).toEqual([]);
  });
});

describe('the organization’s page', () => {
  it('links its owners, and only them, to its settings', async () => {
    const link = `<a class="button" href="${s.url}${ORG}">Settings</a>`;
    expect((await web.octo.get('/Acme')).text).toContain(link);
    for (const other of [web.mona, web.eve, new WebClient(s.url)]) {
      const r = await other.get('/Acme');
      expect(r.status).toBe(200);
      expect(r.text).not.toContain('/settings/hooks');
    }
  });
});

describe('an organization’s hooks', () => {
  it('shows GitHub’s form: Payload URL, Content type, Secret, SSL verification, the events, Active, Add webhook', async () => {
    const r = await web.octo.get(`${ORG}/new`);
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('private, no-store');
    for (const label of [
      '<label for="field-url">Payload URL</label>',
      '<label for="field-content_type">Content type</label>',
      '<label for="field-secret">Secret</label>',
    ])
      expect(r.text).toContain(label);
    expect(r.text).toContain('<option value="application/json">application/json</option>');
    expect(r.text).toContain('<option value="application/x-www-form-urlencoded" selected>application/x-www-form-urlencoded</option>');
    expect(r.text).toContain('<legend>SSL verification</legend>');
    expect(r.text).toContain('<legend>Which events would you like to trigger this webhook?</legend>');
    for (const choice of ['Just the push event.', 'Send me everything.', 'Let me select individual events.'])
      expect(r.text).toContain(choice);
    for (const event of ['push', 'issues', 'pull_request', 'member']) expect(r.text).toContain(`name="events" value="${event}"`);
    expect(r.text).toMatch(/name="active" value="1" checked> Active/);
    expect(r.text).toContain('>Add webhook</button>');
  });

  it('refuses a bad form with 422, each problem next to its field, what was typed kept but the secret', async () => {
    const before = await hooks();
    const typed = '<script>alert(1)</script>not a url';
    const r = await web.octo.post(ORG, hookForm('', { url: typed, event_choice: 'some', events: [] }));
    expect(r.status).toBe(422);
    expect(r.text).toMatch(/aria-invalid="true" aria-describedby="field-url-error"/);
    expect(r.text).toContain(
      '<p class="field-error" id="field-url-error">Payload URL is not a valid http(s) URL of at most 2048 bytes</p>',
    );
    expect(r.text).toContain('aria-describedby="field-events-error"');
    expect(r.text).toContain('<p class="field-error" id="field-events-error">Events must name at least one event</p>');
    expect(r.text).toContain('value="&lt;script&gt;alert(1)&lt;/script&gt;not a url"');
    expect(r.text).not.toContain('<script>alert(1)');
    expect(r.text).toMatch(/value="some" checked/);
    expect(r.text).toContain('value="application/json" selected');
    expect(r.text).not.toContain(SECRET);
    const unknown = await web.octo.post(ORG, hookForm('/x', { event_choice: 'some', events: ['push', 'no_such_event'] }));
    expect(unknown.status).toBe(422);
    expect(unknown.text).toContain('id="field-events-error">Invalid event(s): &quot;no_such_event&quot;</p>');
    expect(unknown.text).toMatch(/name="events" value="push" checked/);
    expect(await hooks()).toEqual(before);
  });

  let id: number;
  it('adds a hook that pings the receiver, signed with its secret, and lists it with how its last delivery went', async () => {
    const r = await web.octo.post(ORG, hookForm('/acme', { event_choice: 'some', events: ['push', 'issues'] }));
    expect(r.status).toBe(303);
    expect(r.location).toBe(`${s.url}${ORG}?notice=created`);
    const row = (await hooks()).at(-1)!;
    id = row.id;
    expect(row).toMatchObject({ scope: 'organization', url: `${rcv.url}/acme`, content_type: 'json', insecure_ssl: '0', active: 1 });
    expect(JSON.parse(row.events)).toEqual(['push', 'issues']);
    const [ping] = await rcv.waitFor(1, onPath('/acme'));
    expect(ping.headers['x-service-event']).toBe('ping');
    expect(signaturesValid(ping, SECRET)).toBe(true);
    await settled();
    const list = await web.octo.get(`${ORG}?notice=created`);
    expect(list.text).toContain('Okay, that hook was successfully created.');
    expect(list.text).toContain(`<a href="${s.url}${ORG}/${id}"><code>${rcv.url}/acme</code></a> <span class="meta">(push, issues)</span>`);
    expect(list.text).toContain('Last delivery was successful.');
  });

  it('edits it: the secret field empty, left empty the secret stays; a new one replaces it; "Remove the secret" removes it', async () => {
    const page = await web.octo.get(`${ORG}/${id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`value="${rcv.url}/acme"`);
    expect(page.text).toMatch(
      /<input id="field-secret" name="secret" type="password" autocomplete="new-password" aria-describedby="field-secret-hint">/,
    );
    expect(page.text).toContain('Leave this empty to keep it');
    expect(page.text).toContain('>Update webhook</button>');
    expect(page.text).toContain(`href="${s.url}${ORG}/${id}/delete">Delete webhook</a>`);
    const kept = await web.octo.post(
      `${ORG}/${id}`,
      hookForm('/acme', { secret: '', event_choice: 'all', content_type: 'application/x-www-form-urlencoded' }),
    );
    expect(kept.status).toBe(303);
    expect(kept.location).toBe(`${s.url}${ORG}/${id}?notice=updated`);
    const row = (await hooks()).find((h) => h.id === id)!;
    expect(JSON.parse(row.events)).toEqual(['*']);
    expect(row.content_type).toBe('form');
    await web.octo.get(`${ORG}/${id}/deliveries`);
    expect((await web.octo.post(`${ORG}/${id}/pings`, {})).status).toBe(303);
    const [signed] = await rcv.waitFor(2, onPath('/acme')).then((all) => all.slice(1));
    expect(signaturesValid(signed, SECRET)).toBe(true);
    await web.octo.post(`${ORG}/${id}`, hookForm('/acme', { secret: 'another secret of 20 chars' }));
    await web.octo.post(`${ORG}/${id}/pings`, {});
    const [renewed] = (await rcv.waitFor(3, onPath('/acme'))).slice(2);
    expect(signaturesValid(renewed, 'another secret of 20 chars')).toBe(true);
    await web.octo.post(`${ORG}/${id}`, hookForm('/acme', { secret: '', remove_secret: '1' }));
    expect((await hooks()).find((h) => h.id === id)!.secret).toBeNull();
    const again = await web.octo.get(`${ORG}/${id}`);
    expect(again.text).not.toContain('remove_secret');
    // Back to the first secret for the delivery pages below.
    await web.octo.post(`${ORG}/${id}`, hookForm('/acme'));
    await settled();
  });

  it('shows Recent Deliveries (GUID, event, time, status code, duration) and one delivery as recorded, headers and payload', async () => {
    await web.octo.post(`${ORG}/${id}/pings`, {});
    await settled();
    const [latest] = (await deliveries(id)).reverse();
    const list = await web.octo.get(`${ORG}/${id}/deliveries`);
    expect(list.status).toBe(200);
    expect(list.text).toContain('<h2>Recent Deliveries</h2>');
    expect(list.text).toContain(`<a href="${s.url}${ORG}/${id}/deliveries/${latest.id}"><code>${latest.guid}</code></a>`);
    expect(list.text).toContain(`<td>ping</td>`);
    expect(list.text).toContain(`<time datetime="${new Date(latest.delivered_at).toISOString().replace(/\.\d{3}Z$/, 'Z')}">`);
    expect(list.text).toContain('<td>200</td>');
    expect(list.text).toContain(`<td>${latest.duration.toFixed(2)} s</td>`);
    const one = await web.octo.get(`${ORG}/${id}/deliveries/${latest.id}`);
    expect(one.status).toBe(200);
    const headers = JSON.parse(latest.request_headers) as Record<string, string>;
    expect(Object.keys(headers)).toEqual(expect.arrayContaining(['X-Hub-Signature-256', 'X-Service-Event', 'X-Service-Delivery']));
    for (const [name, value] of Object.entries(headers))
      expect(one.text).toContain(`<th scope="row">${name}</th><td><code>${value}</code></td>`);
    expect(one.text).toContain(`<code>${headers['X-Hub-Signature-256']}</code>`);
    expect(one.text).toContain(`  &quot;hook_id&quot;: ${id},`);
    expect(one.text).toContain('<pre class="payload" tabindex="0"><code>thanks</code></pre>');
    expect(one.text).toContain('>Redeliver</button>');
  });

  it('redelivers a delivery: a second one with the same GUID, marked redelivery, that the receiver got', async () => {
    const [first] = await deliveries(id);
    const from = rcv.received.length;
    const r = await web.octo.post(`${ORG}/${id}/deliveries/${first.id}/attempts`, {});
    expect(r.status).toBe(303);
    expect(r.location).toBe(`${s.url}${ORG}/${id}/deliveries?notice=redelivered`);
    await settled();
    const latest = (await deliveries(id)).at(-1)!;
    expect(latest).toMatchObject({ guid: first.guid, redelivery: 1, status_code: 200 });
    expect(rcv.received.slice(from).map((x) => x.headers['x-service-delivery'])).toEqual([first.guid]);
    const list = await web.octo.get(`${ORG}/${id}/deliveries?notice=redelivered`);
    expect(list.text).toContain('Okay, we are redelivering that payload.');
    expect(list.text).toContain('<span class="badge">redelivery</span>');
  });

  it('deletes it after a confirmation page, with a POST', async () => {
    const confirm = await web.octo.get(`${ORG}/${id}/delete`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('<h1>Delete webhook?</h1>');
    expect(confirm.text).toContain(`<form method="post" action="${s.url}${ORG}/${id}/delete">`);
    expect((await hooks()).some((h) => h.id === id)).toBe(true);
    const r = await web.octo.post(`${ORG}/${id}/delete`, {});
    expect(r.status).toBe(303);
    expect(r.location).toBe(`${s.url}${ORG}?notice=deleted`);
    expect((await hooks()).some((h) => h.id === id)).toBe(false);
    expect((await web.octo.get(`${ORG}/${id}`)).status).toBe(404);
    expect((await web.octo.get(`${ORG}?notice=deleted`)).text).not.toContain(`${rcv.url}/acme<`);
  });
});

describe('the signature format', () => {
  const FORMATS = [
    ['github', 'GitHub (X-Hub-Signature-256)'],
    ['standard', 'Standard Webhooks (webhook-signature)'],
    ['github,standard', 'Both'],
  ];
  /** The radio button of a format, checked or not, with the label that names it. */
  const radio = (value: string, on: boolean) => {
    const label = FORMATS.find(([v]) => v === value)![1];
    return `<label class="check" for="field-signature_format-${value}"><input type="radio" id="field-signature_format-${value}" name="signature_format" value="${value}"${on ? ' checked' : ''}> ${label}</label>`;
  };
  /** What the API shows of the hook's config (GET …/config, as its owner). */
  let token: string;
  const apiConfig = async (id: number) => {
    const r = await s.api('GET', `/orgs/Acme/hooks/${id}/config`, { token });
    expect(r.status).toBe(200);
    return r.body;
  };
  beforeAll(async () => {
    token = await s.createToken('octo', { scopes: ['admin:org_hook'] });
  });

  it('is offered as three labelled choices, GitHub’s chosen by default', async () => {
    const r = await web.octo.get(`${ORG}/new`);
    expect(r.text).toContain('<legend>Signature format</legend>');
    for (const [value] of FORMATS) expect(r.text).toContain(radio(value, value === 'github'));
  });

  let id: number;
  it('"Standard Webhooks" makes a hook the API shows with signature_format standard, whose ping the library verifies', async () => {
    const r = await web.octo.post(ORG, hookForm('/sw-page', { signature_format: 'standard' }));
    expect(r.status).toBe(303);
    id = (await hooks()).at(-1)!.id;
    expect(await apiConfig(id)).toMatchObject({ url: `${rcv.url}/sw-page`, signature_format: 'standard', secret: '********' });
    const [ping] = await rcv.waitFor(1, onPath('/sw-page'));
    const headers = Object.fromEntries(Object.entries(ping.headers).map(([k, v]) => [k, String(v)]));
    // A secret that is not whsec_… is its UTF-8 bytes (docs/webhooks.md).
    expect(new Webhook(Buffer.from(SECRET), { format: 'raw' }).verify(ping.body.toString('utf8'), headers)).toMatchObject({ hook_id: id });
    expect(ping.headers['x-hub-signature-256']).toBeUndefined();
    await settled();
  });

  it('the hook’s settings show it chosen; a refused form keeps what was chosen', async () => {
    const page = await web.octo.get(`${ORG}/${id}`);
    expect(page.text).toContain(radio('standard', true));
    for (const other of ['github', 'github,standard']) expect(page.text).toContain(radio(other, false));
    const refused = await web.octo.post(`${ORG}/${id}`, hookForm('', { url: 'not a url', signature_format: 'github,standard' }));
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('id="field-url-error"');
    expect(refused.text).toContain(radio('github,standard', true));
    expect(refused.text).toContain(radio('standard', false));
    const before = await hooks();
    const newOne = await web.octo.post(ORG, hookForm('/sw-kept', { event_choice: 'some', events: [], signature_format: 'standard' }));
    expect(newOne.status).toBe(422);
    expect(newOne.text).toContain(radio('standard', true));
    expect(await hooks()).toEqual(before);
    expect(await apiConfig(id)).toMatchObject({ signature_format: 'standard' });
  });

  it('a forged value gets the form back with the API’s error under the field, nothing made or changed', async () => {
    const before = await hooks();
    const error =
      '<p class="field-error" id="field-signature_format-error">Signature format must be &quot;github&quot;, &quot;standard&quot; or &quot;github,standard&quot;</p>';
    for (const path of [ORG, `${ORG}/${id}`]) {
      const r = await web.octo.post(path, hookForm('/sw-forged', { signature_format: 'sha1' }));
      expect([path, r.status]).toEqual([path, 422]);
      expect(r.text).toContain('<fieldset class="field" aria-describedby="field-signature_format-error"><legend>Signature format</legend>');
      expect(r.text).toContain(error);
      // None of the choices was posted, so none is shown chosen.
      for (const [value] of FORMATS) expect(r.text).toContain(radio(value, false));
      expect(r.text).not.toContain(SECRET);
    }
    expect(await hooks()).toEqual(before);
    expect(await apiConfig(id)).toMatchObject({ signature_format: 'standard' });
  });

  it('a post without its token or from another site is refused (403), the format unchanged', async () => {
    await web.octo.get(`${ORG}/${id}`);
    for (const r of [
      await web.octo.post(`${ORG}/${id}`, hookForm('/sw-page', { signature_format: 'github', authenticity_token: '' })),
      await web.octo.post(`${ORG}/${id}`, hookForm('/sw-page', { signature_format: 'github' }), { 'sec-fetch-site': 'cross-site' }),
      await web.octo.post(ORG, hookForm('/sw-csrf', { signature_format: 'standard', authenticity_token: '' })),
    ])
      expect(r.status).toBe(403);
    expect(await apiConfig(id)).toMatchObject({ signature_format: 'standard' });
    expect((await hooks()).some((h) => h.url.endsWith('/sw-csrf'))).toBe(false);
  });

  it('"Both", then "GitHub" again: the API shows github,standard, then no signature_format; the secret stays', async () => {
    const update = (format: string) => web.octo.post(`${ORG}/${id}`, hookForm('/sw-page', { secret: '', signature_format: format }));
    expect((await update('github,standard')).status).toBe(303);
    expect(await apiConfig(id)).toMatchObject({ signature_format: 'github,standard' });
    expect((await web.octo.get(`${ORG}/${id}`)).text).toContain(radio('github,standard', true));
    expect((await update('github')).status).toBe(303);
    const config = await apiConfig(id);
    expect(config).not.toHaveProperty('signature_format');
    expect(config.secret).toBe('********');
    expect((await web.octo.get(`${ORG}/${id}`)).text).toContain(radio('github', true));
    await web.octo.post(`${ORG}/${id}/delete`, {});
    await settled();
  });
});

describe('a payload URL with credentials', () => {
  it('is shown masked, and posted back as shown keeps its credentials', async () => {
    const url = `http://hook:pw-1234@127.0.0.1:${rcv.port}/cred`;
    await web.octo.get(`${ORG}/new`);
    expect((await web.octo.post(ORG, hookForm('', { url }))).status).toBe(303);
    const id = (await hooks()).at(-1)!.id;
    const masked = `http://hook:********@127.0.0.1:${rcv.port}/cred`;
    const page = await web.octo.get(`${ORG}/${id}`);
    expect(page.text).toContain(`value="${masked}"`);
    expect(page.text).not.toContain('pw-1234');
    expect((await web.octo.post(`${ORG}/${id}`, hookForm('', { url: masked, event_choice: 'all' }))).status).toBe(303);
    await web.octo.post(`${ORG}/${id}/pings`, {});
    const [, again] = await rcv.waitFor(2, onPath('/cred'));
    expect(again.headers.authorization).toBe(`Basic ${Buffer.from('hook:pw-1234').toString('base64')}`);
  });
});

describe('failed deliveries', () => {
  let id: number;
  beforeAll(async () => {
    await web.octo.get(`${ORG}/new`);
    expect((await web.octo.post(ORG, hookForm('/fail-1'))).status).toBe(303);
    id = (await hooks()).at(-1)!.id;
    await web.octo.get(`${ORG}/${id}/deliveries`);
    await web.octo.post(`${ORG}/${id}/pings`, {});
    await settled();
  });

  it('lists the failed ones alone, with the response body as recorded, escaped', async () => {
    const rows = await deliveries(id);
    expect(rows.map((r) => r.status_code)).toEqual([500, 500]);
    const failed = await web.octo.get(`${ORG}/${id}/deliveries?status=failure`);
    expect(failed.text).toContain('aria-current="page">Failed</a>');
    for (const r of rows) expect(failed.text).toContain(r.guid);
    const one = await web.octo.get(`${ORG}/${id}/deliveries/${rows[0].id}`);
    expect(one.text).toContain('<code>down &lt;b&gt;for&lt;/b&gt; now</code>');
    expect(one.text).toContain('Invalid HTTP Response: 500');
    expect((await web.octo.get(ORG)).text).toContain('Last delivery was not successful. Invalid HTTP Response: 500');
    // Once the receiver answers, a success is not among the failed.
    await s.db
      .updateTable('hooks')
      .set({ url: `${rcv.url}/ok-now` })
      .where('id', '=', id)
      .execute();
    await web.octo.post(`${ORG}/${id}/pings`, {});
    await settled();
    const ok = (await deliveries(id)).at(-1)!;
    expect((await web.octo.get(`${ORG}/${id}/deliveries?status=failure`)).text).not.toContain(ok.guid);
    expect((await web.octo.get(`${ORG}/${id}/deliveries`)).text).toContain(ok.guid);
  });

  it('"Redeliver failed since …" redelivers each failed event since then, once, and says how many', async () => {
    const bad = await web.octo.post(`${ORG}/${id}/deliveries/redeliver-failed`, { since: 'yesterday' });
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('aria-invalid="true" aria-describedby="field-since-hint field-since-error"');
    expect(bad.text).toContain('id="field-since-error">Since must be a date and a time');
    expect(bad.text).toContain('value="yesterday"');
    const failed = (await deliveries(id)).filter((r) => r.status_code === 500);
    const from = rcv.received.length;
    const since = new Date(Date.parse(failed[0].delivered_at) - 60_000).toISOString().slice(0, 16);
    const r = await web.octo.post(`${ORG}/${id}/deliveries/redeliver-failed`, { since });
    expect(r.status).toBe(303);
    expect(r.location).toBe(`${s.url}${ORG}/${id}/deliveries?status=failure&notice=redelivered_failed&count=2`);
    await settled();
    expect(
      rcv.received
        .slice(from)
        .map((x) => x.headers['x-service-delivery'])
        .sort(),
    ).toEqual(failed.map((f) => f.guid).sort());
    const redelivered = (await deliveries(id)).filter((x) => x.redelivery);
    expect(redelivered.map((x) => [x.guid, x.status_code]).sort()).toEqual(failed.map((f) => [f.guid, 200]).sort());
    expect((await web.octo.get(r.location.slice(s.url.length))).text).toContain('Okay, redelivering 2 failed deliveries.');
    // Succeeded now: nothing is failed since then any more.
    const none = await web.octo.post(`${ORG}/${id}/deliveries/redeliver-failed`, { since });
    expect(none.location).toContain('count=0');
    expect((await web.octo.get(none.location.slice(s.url.length))).text).toContain('No failed deliveries since then.');
  });
});

describe('a repository’s hooks and the global hooks', () => {
  it('a repository’s admin manages its hooks at /<owner>/<repo>/settings/hooks', async () => {
    const page = await web.alice.get('/alice/tools/settings/hooks');
    expect(page.status).toBe(200);
    expect(page.text).toContain('aria-label="Repository settings"');
    await web.alice.get('/alice/tools/settings/hooks/new');
    const r = await web.alice.post('/alice/tools/settings/hooks', hookForm('/tools'));
    expect(r.status).toBe(303);
    const row = (await hooks()).at(-1)!;
    expect(row).toMatchObject({ scope: 'repository', url: `${rcv.url}/tools` });
    await rcv.waitFor(1, onPath('/tools'));
    expect((await web.alice.get('/alice/tools/settings/hooks')).text).toContain(`${rcv.url}/tools`);
    expect((await web.octo.get(`/alice/tools/settings/hooks/${row.id}`)).status).toBe(404);
    // The repository's own pages stay where they were.
    expect((await web.alice.get('/alice/tools')).status).toBe(200);
  });

  it('site admins manage global hooks at /admin/settings/hooks, with the global events; /admin/hooks stays the API', async () => {
    const form = await web.root.get('/admin/settings/hooks/new');
    expect(form.status).toBe(200);
    expect(form.text).not.toContain('Just the push event.');
    expect(form.text).not.toContain('value="push"');
    for (const event of ['organization', 'user', 'repository', 'team', 'member', 'membership', 'fork'])
      expect(form.text).toContain(`name="events" value="${event}"`);
    const r = await web.root.post('/admin/settings/hooks', hookForm('/global', { event_choice: 'some', events: ['user', 'organization'] }));
    expect(r.status).toBe(303);
    expect((await hooks()).at(-1)).toMatchObject({ scope: 'global', url: `${rcv.url}/global` });
    await rcv.waitFor(1, onPath('/global'));
    expect((await web.root.get('/admin/settings/hooks')).text).toContain(`${rcv.url}/global`);
    const api = await s.api('GET', '/admin/hooks', { token: s.adminToken });
    expect(api.status).toBe(200);
    expect(api.body.map((h: { config: { url: string } }) => h.config.url)).toContain(`${rcv.url}/global`);
  });
});

describe('the secret', () => {
  it('appears in no page anyone was shown', () => {
    expect(seen.length).toBeGreaterThan(50);
    for (const text of seen) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain('another secret of 20 chars');
    }
  });
});
