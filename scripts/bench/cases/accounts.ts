// Foundation cases: the cost of the shared request path (auth, rate limit, ETag, logging) on a small JSON read.
import { httpCase } from '../http-case.js';

export const accountCases = [
  httpCase({
    name: 'GET /users/{username} (authenticated), 50 connections',
    target: 'reference: the shared request path',
    async setup(ctx) {
      return [{ path: '/users/admin', headers: { authorization: `Bearer ${ctx.server.adminToken}` } }];
    },
  }),
];
