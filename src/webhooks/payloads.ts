// Payloads of the events hooks emit about themselves: `ping` (creation, the ping endpoint) and `meta` (deleted), for
// hooks of every scope (the repository and the organization named when there are).
import crypto from 'node:crypto';
import { simpleOrganization, simpleUser } from '../accounts/present.js';
import type { UserRow } from '../db/schema.js';
import type { Urls } from '../core/urls.js';
import { hookCore, type HookHome } from './present.js';
import type { HookRow } from '../db/tables/webhooks.js';

/** GitHub's design principles, one of which rides along with every ping. */
const ZEN = [
  'Responsive is better than fast.',
  "It's not fully shipped until it's fast.",
  'Anything added dilutes everything else.',
  'Practicality beats purity.',
  'Avoid administrative distraction.',
  'Mind your words, they are important.',
  'Non-blocking is better than blocking.',
  'Design for failure.',
  'Half measures are as bad as nothing at all.',
  'Favor focus over features.',
  'Approachable is better than simple.',
  'Encourage flow.',
  'Keep it logically awesome.',
  'Speak like a human.',
];

/**
 * Where the hook lives, the repository its payloads name (a repository's hook) and the organization (an organization's
 * hook or repository), if any.
 */
type PayloadHome = HookHome & { org: UserRow | null; repository: Record<string, unknown> | null };

/** The `repository` and `organization` of a hook's own payloads, when the hook has them. */
function named(home: PayloadHome, urls: Urls) {
  return {
    ...(home.repository ? { repository: home.repository } : {}),
    ...(home.org ? { organization: simpleOrganization(home.org, urls) } : {}),
  };
}

/** The ping event: a saying, the hook as it is now, its repository and organization, and who caused it. */
export function pingPayload(hook: HookRow, home: PayloadHome, sender: UserRow, urls: Urls) {
  return {
    zen: ZEN[crypto.randomInt(ZEN.length)],
    hook_id: hook.id,
    hook: hookCore(hook, home, urls),
    ...named(home, urls),
    sender: simpleUser(sender, urls),
  };
}

/** The meta event sent to a hook as it is deleted. */
export function metaDeletedPayload(hook: HookRow, home: PayloadHome, sender: UserRow, urls: Urls) {
  return {
    action: 'deleted',
    hook_id: hook.id,
    hook: hookCore(hook, home, urls),
    ...named(home, urls),
    sender: simpleUser(sender, urls),
  };
}
