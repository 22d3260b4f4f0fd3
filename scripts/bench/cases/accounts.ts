// Foundation cases: the cost of the shared request path (auth, rate limit, ETag, logging) on a small JSON read, against
// the bare baseline and, in the same rounds, against the stack's reference: a minimal Fastify server doing the same
// authenticated read on the same database (stack-server.mjs; issue 28's goal: hublet at 0.8× of it or better).
import { atLeast } from '../goals.js';
import { httpCase } from '../http-case.js';
import { startStackServer } from '../processes.js';

const driver = (url: string) => (/^postgres(ql)?:\/\//i.test(url) ? 'pg' : 'sqlite3');

export const accountCases = [
  httpCase({
    name: 'GET /users/{username} (authenticated), 50 connections',
    goals: [atLeast('stackRatio', 0.8, '× the minimal Fastify + sqlite3 (or pg) server below, same read', 'ratio to stack ')],
    async setup(ctx) {
      return [{ path: '/users/admin', headers: { authorization: `Bearer ${ctx.server.adminToken}` } }];
    },
    stack: {
      rowName: (ctx) =>
        `GET /users/{username} (authenticated), minimal Fastify + ${driver(ctx.server.databaseUrl)} server (reference), 50 connections`,
      target: 'reference: the stack alone, one process (token lookup + user read on the same database)',
      start: (ctx) => startStackServer(ctx.server.databaseUrl),
    },
  }),
];
