// Shared by the audit log tests: the site's log read back through the API (every entry, oldest first) and the one entry
// of an action that a step just recorded.
import { expect } from 'vitest';
import type { TestServer } from '../helpers/server.js';

export type AuditEvent = Record<string, any>;

/** Every entry of the site's log matching `phrase` (git events too), oldest first, read through the Link header's cursors. */
export async function siteLog(s: TestServer, phrase = '', token = s.adminToken): Promise<AuditEvent[]> {
  const out: AuditEvent[] = [];
  let next: string | undefined =
    `/enterprises/hublet/audit-log?${new URLSearchParams({ phrase, include: 'all', order: 'asc', per_page: '100' })}`;
  while (next) {
    const r = await s.api('GET', next, { token });
    expect(r.status, r.text).toBe(200);
    out.push(...(r.body as AuditEvent[]));
    const link = /<([^>]+)>;\s*rel="next"/.exec(r.headers.get('link') ?? '');
    next = link ? new URL(link[1]).pathname + new URL(link[1]).search : undefined;
  }
  return out;
}

/** The entries recorded since `seen` entries were there (the log's length before a step). */
export async function newEntries(s: TestServer, seen: number): Promise<AuditEvent[]> {
  return (await siteLog(s)).slice(seen);
}

/** The one new entry of `action` since `seen`; fails when there is none or several. */
export async function oneEntry(s: TestServer, seen: number, action: string): Promise<AuditEvent> {
  const found = (await newEntries(s, seen)).filter((e) => e.action === action);
  expect(
    found.map((e) => e.action),
    `one ${action}`,
  ).toEqual([action]);
  return found[0];
}
