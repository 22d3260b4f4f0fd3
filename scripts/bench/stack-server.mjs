// The stack's reference (issue 28): a minimal Fastify server doing the read of hublet's authenticated
// GET /users/{username} on hublet's own database: the Bearer token's SHA-256 hex looked up joined to its user (revoked,
// expired and suspended refused), then the user by login_lower, a handful of fields as JSON. SQLite: three read-only
// node-sqlite3 connections, each with its two statements prepared once; PostgreSQL: a pg pool of three, named statements.
// Usage: node stack-server.mjs DATABASE (hublet's SQLite file or a postgres:// URL); prints the URL it listens on.
import crypto from 'node:crypto';
import Fastify from 'fastify';

const TOKEN = `select t.revoked_at, t.expires_at, u.suspended_at from tokens t join users u on u.id = t.user_id where t.token_hash = ?`;
const USER = `select id, login, type, name, company, blog, location, email, bio, site_admin, created_at, updated_at
  from users where login_lower = ?`;

/** `(statement, param) => first row`, on SQLite: the least busy of three read-only connections. */
async function sqlite(file) {
  const { default: sqlite3 } = await import('sqlite3');
  const reader = async () => {
    const db = await new Promise((res, rej) => {
      const d = new sqlite3.Database(file, sqlite3.OPEN_READONLY | sqlite3.OPEN_FULLMUTEX, (err) => (err ? rej(err) : res(d)));
    });
    db.configure('busyTimeout', 10_000);
    const prepare = (sql) =>
      new Promise((res, rej) => {
        const s = db.prepare(sql, (err) => (err ? rej(err) : res(s)));
      });
    return { busy: 0, token: await prepare(TOKEN), user: await prepare(USER) };
  };
  const readers = await Promise.all([reader(), reader(), reader()]);
  return async (name, param) => {
    const r = readers.reduce((a, b) => (b.busy < a.busy ? b : a));
    r.busy++;
    try {
      // all(), not get(): get() leaves the statement on its row, holding its read snapshot (a revocation unseen).
      return await new Promise((res, rej) => r[name].all([param], (err, rows) => (err ? rej(err) : res(rows[0]))));
    } finally {
      r.busy--;
    }
  };
}

/** The same on PostgreSQL: a pool of three, each statement prepared once per connection (named). */
async function postgres(url) {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: url, max: 3 });
  const text = { token: TOKEN.replace('?', '$1'), user: USER.replace('?', '$1') };
  return async (name, param) => (await pool.query({ name, text: text[name], values: [param] })).rows[0];
}

const url = process.argv[2];
const query = /^postgres(ql)?:\/\//i.test(url) ? await postgres(url) : await sqlite(url);
const app = Fastify();
app.get('/users/:username', async (request, reply) => {
  const presented = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  const t = presented && (await query('token', crypto.hash('sha256', presented, 'hex')));
  if (!t || t.revoked_at || t.suspended_at || (t.expires_at && Date.parse(t.expires_at) <= Date.now()))
    return reply.code(401).send({ message: 'Bad credentials' });
  const u = await query('user', request.params.username.toLowerCase());
  if (!u) return reply.code(404).send({ message: 'Not Found' });
  return { ...u, site_admin: u.site_admin === 1 };
});
// A clean exit on SIGTERM, so that `--profile` (node --cpu-prof) writes its profile.
process.once('SIGTERM', () => process.exit(0));
await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`stack server listening on http://127.0.0.1:${app.server.address().port}`);
