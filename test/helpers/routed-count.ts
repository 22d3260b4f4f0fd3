// Telling the fast path from the routes: a count of the requests the routes answered through the response cache.
import type { TestServer } from './server.js';

/** Counts the requests the routes answer through the response cache (the fast path never calls respond). */
export function countRouted(server: TestServer): () => number {
  const cache = server.app.hublet.responses;
  const respond = cache.respond.bind(cache);
  let routed = 0;
  cache.respond = (...args) => {
    routed++;
    return respond(...args);
  };
  return () => routed;
}
