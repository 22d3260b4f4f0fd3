// The answer to a create: 201 with the new resource's API URL in `Location` (GitHub's), and its JSON.
import type { FastifyReply } from 'fastify';

/** 201 Created, `Location: <location>`, and `body`. */
export function created(reply: FastifyReply, location: string, body: unknown): FastifyReply {
  return reply.code(201).header('location', location).send(body);
}
