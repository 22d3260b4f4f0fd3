// Hook bodies checked by their JSON schemas (src/webhooks/schemas.ts) and validate.ts together: one 422 lists every
// field's problem, in GitHub's shape; bodies GitHub's clients send (Terraform, Octokit) are taken; owners are checked first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSchema } from '../helpers/openapi.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { startReceiver, type Receiver } from './receiver.js';

let s: TestServer;
let rcv: Receiver;
let owner: { login: string; token: string };
let member: { login: string; token: string };

beforeAll(async () => {
  s = await startServer();
  rcv = await startReceiver();
  owner = await s.userWithToken('schemer');
  member = await s.userWithToken('plain');
  await s.createOrg('shapes', 'schemer');
  await s.addMember('shapes', 'plain', 'member');
});
afterAll(async () => {
  await s?.close();
  await rcv?.close();
});

let n = 0;
const hookUrl = () => `${rcv.url}/shapes/${++n}`;
const DOCS = 'https://docs.github.com/rest';

async function newHook(config: Record<string, unknown> = {}) {
  const r = await s.api('POST', '/orgs/shapes/hooks', { token: owner.token, body: { name: 'web', config: { url: hookUrl(), ...config } } });
  expect(r.status, r.text).toBe(201);
  return r.body as { id: number; config: { url: string } };
}

describe('wrong types in several fields: one 422 naming each, in the order the body lists them', () => {
  it('POST /orgs/{org}/hooks', async () => {
    const body = {
      name: 7,
      config: { url: 12, content_type: ['json'], insecure_ssl: false, secret: { s: 1 }, username: 3, password: true },
      events: [1, 'push'],
      active: 'true',
    };
    const r = await s.api('POST', '/orgs/shapes/hooks', { token: owner.token, body });
    expect(r.status).toBe(422);
    checkSchema(r, 'POST /orgs/{org}/hooks');
    expect(r.body).toEqual({
      message: 'Validation Failed',
      errors: [
        { resource: 'Hook', code: 'invalid', field: 'name', message: 'name must be "web"' },
        { resource: 'Hook', code: 'invalid', field: 'url', message: 'url must be a string' },
        { resource: 'Hook', code: 'invalid', field: 'content_type', message: 'content_type must be json or form' },
        { resource: 'Hook', code: 'invalid', field: 'insecure_ssl', message: 'insecure_ssl must be "0" or "1"' },
        { resource: 'Hook', code: 'invalid', field: 'secret', message: 'secret must be a string of at most 1024 characters' },
        { resource: 'Hook', code: 'invalid', field: 'username', message: 'username must be a string of at most 1024 characters' },
        { resource: 'Hook', code: 'invalid', field: 'password', message: 'password must be a string of at most 1024 characters' },
        { resource: 'Hook', code: 'invalid', field: 'events', message: 'events must be an array of event names' },
        { resource: 'Hook', code: 'invalid', field: 'active', message: 'active must be true or false' },
      ],
      documentation_url: DOCS,
      status: '422',
    });
  });

  it('schema problems and the checks a schema cannot say (URL, secret, event names) come in the same 422', async () => {
    const r = await s.api('POST', '/orgs/shapes/hooks', {
      token: owner.token,
      body: {
        name: null,
        config: { url: 'gopher://x.test/', secret: 'a\nb', content_type: 'xml' },
        events: ['push', 'pushed'],
        active: null,
      },
    });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([
      { resource: 'Hook', code: 'missing_field', field: 'name' },
      { resource: 'Hook', code: 'custom', field: 'url', message: 'url is not a valid http(s) URL of at most 2048 bytes' },
      { resource: 'Hook', code: 'invalid', field: 'content_type', message: 'content_type must be json or form' },
      { resource: 'Hook', code: 'invalid', field: 'secret', message: 'secret must be a string of at most 1024 characters' },
      { resource: 'Hook', code: 'custom', field: 'events', message: 'Invalid event(s): "pushed"' },
      { resource: 'Hook', code: 'invalid', field: 'active', message: 'active must be true or false' },
    ]);
  });

  it('PATCH /orgs/{org}/hooks/{hook_id} and PATCH …/config', async () => {
    const h = await newHook();
    const patch = await s.api('PATCH', `/orgs/shapes/hooks/${h.id}`, {
      token: owner.token,
      body: { name: 'email', config: null, events: [], active: 0 },
    });
    expect(patch.status).toBe(422);
    checkSchema(patch, 'PATCH /orgs/{org}/hooks/{hook_id}');
    expect(patch.body.errors).toEqual([
      { resource: 'Hook', code: 'invalid', field: 'name', message: 'name must be "web"' },
      { resource: 'Hook', code: 'missing_field', field: 'config' },
      { resource: 'Hook', code: 'custom', field: 'events', message: 'events must name at least one event' },
      { resource: 'Hook', code: 'invalid', field: 'active', message: 'active must be true or false' },
    ]);
    const config = await s.api('PATCH', `/orgs/shapes/hooks/${h.id}/config`, {
      token: owner.token,
      body: { url: null, content_type: 1, insecure_ssl: '2', secret: 5 },
    });
    expect(config.status).toBe(422);
    checkSchema(config, 'PATCH /orgs/{org}/hooks/{hook_id}/config');
    expect(config.body.errors).toEqual([
      { resource: 'Hook', code: 'custom', field: 'url', message: 'url cannot be blank' },
      { resource: 'Hook', code: 'invalid', field: 'content_type', message: 'content_type must be json or form' },
      { resource: 'Hook', code: 'invalid', field: 'insecure_ssl', message: 'insecure_ssl must be "0" or "1"' },
      { resource: 'Hook', code: 'invalid', field: 'secret', message: 'secret must be a string of at most 1024 characters' },
    ]);
    // Nothing changed.
    expect((await s.api('GET', `/orgs/shapes/hooks/${h.id}/config`, { token: owner.token })).body).toEqual({
      url: h.config.url,
      content_type: 'form',
      insecure_ssl: '0',
    });
  });

  it('a caller who does not own the organization learns nothing about the body: 404 before any 422', async () => {
    const h = await newHook();
    const bad = { name: 1, config: 'x', events: 'push', active: 'no' };
    for (const [method, path] of [
      ['POST', '/orgs/shapes/hooks'],
      ['PATCH', `/orgs/shapes/hooks/${h.id}`],
      ['PATCH', `/orgs/shapes/hooks/${h.id}/config`],
    ]) {
      const r = await s.api(method, path, { token: member.token, body: bad });
      expect(r.status, `${method} ${path}`).toBe(404);
    }
    // An owner naming a hook that does not exist: 404 as well, whatever the body.
    expect((await s.api('PATCH', '/orgs/shapes/hooks/424242', { token: owner.token, body: bad })).status).toBe(404);
    expect((await s.api('PATCH', '/orgs/shapes/hooks/424242/config', { token: owner.token, body: { url: 5 } })).status).toBe(404);
  });
});

describe('bodies GitHub accepts are taken', () => {
  it("Terraform's github_organization_webhook: create, then update the whole hook", async () => {
    const url = hookUrl();
    const created = await s.api('POST', '/orgs/shapes/hooks', {
      token: owner.token,
      body: {
        name: 'web',
        config: { url, content_type: 'json', insecure_ssl: '0', secret: 'tf-secret' },
        events: ['push', 'pull_request'],
        active: true,
      },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      name: 'web',
      active: true,
      events: ['push', 'pull_request'],
      config: { url, content_type: 'json', insecure_ssl: '0', secret: '********' },
    });
    const updated = await s.api('PATCH', `/orgs/shapes/hooks/${created.body.id}`, {
      token: owner.token,
      body: { name: 'web', config: { url, content_type: 'form', insecure_ssl: '1', secret: 'tf-secret' }, events: ['push'], active: false },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({
      active: false,
      events: ['push'],
      config: { url, content_type: 'form', insecure_ssl: '1', secret: '********' },
    });
  });

  it('Octokit: insecure_ssl as a number or a string, the config endpoint, properties hublet does not know', async () => {
    const octokit = s.octokit(owner.token);
    const { data: hook, status } = await octokit.rest.orgs.createWebhook({
      org: 'shapes',
      name: 'web',
      config: { url: hookUrl(), insecure_ssl: 1, content_type: 'json' },
      events: ['*'],
    });
    expect(status).toBe(201);
    expect(hook.config).toMatchObject({ insecure_ssl: '1', content_type: 'json' });
    const { data: config } = await octokit.rest.orgs.updateWebhookConfigForOrg({
      org: 'shapes',
      hook_id: hook.id,
      insecure_ssl: '0',
      secret: 'new',
    });
    expect(config).toMatchObject({ insecure_ssl: '0', secret: '********' });
    const { data: patched } = await octokit.rest.orgs.updateWebhook({
      org: 'shapes',
      hook_id: hook.id,
      config: { url: hookUrl(), insecure_ssl: 0 },
      active: true,
      add_events: ['meta'],
    } as never);
    expect(patched.config).toMatchObject({ insecure_ssl: '0', content_type: 'form' });
    // Unknown properties anywhere are ignored, as GitHub does; null reads as "not given" where GitHub reads it so.
    const r = await s.api('POST', '/orgs/shapes/hooks', {
      token: owner.token,
      body: {
        name: 'web',
        config: { url: hookUrl(), content_type: null, insecure_ssl: null, secret: null, extra: 1 },
        events: ['push', 'push'],
        flavour: 'x',
      },
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ events: ['push'], active: true, config: { content_type: 'form', insecure_ssl: '0' } });
    expect(r.body.config.secret).toBeUndefined();
    expect(r.body.config.extra).toBeUndefined();
  });

  it('a request without a body is an empty one: 422 for a new hook, no change for an update', async () => {
    const h = await newHook();
    const create = await s.api('POST', '/orgs/shapes/hooks', { token: owner.token });
    expect(create.status).toBe(422);
    expect(create.body.errors).toEqual([
      { resource: 'Hook', code: 'missing_field', field: 'name' },
      { resource: 'Hook', code: 'missing_field', field: 'config' },
    ]);
    expect((await s.api('PATCH', `/orgs/shapes/hooks/${h.id}`, { token: owner.token })).status).toBe(200);
    const config = await s.api('PATCH', `/orgs/shapes/hooks/${h.id}/config`, { token: owner.token });
    expect(config.status).toBe(200);
    expect(config.body).toEqual({ url: h.config.url, content_type: 'form', insecure_ssl: '0' });
  });
});
