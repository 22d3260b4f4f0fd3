// `hublet auth login --server URL` without --token: GitHub's device flow (RFC 8628) with hublet's own CLI app. Asks the
// server for a one-time code, tells the person where to enter it (on stderr, terminal or not), then asks for the token
// every `interval` seconds (5 more after each slow_down) until it is approved, denied, expired or Ctrl-C stops it.
import { HUBLET_CLI_CLIENT_ID } from '../../../accounts/builtin-apps.js';
import type { ApiResponse, Client } from '../../client.js';
import type { IO } from '../../io.js';
import { CliExit, EXIT } from '../../output.js';

/**
 * The scopes the CLI's commands need: gists; repositories, their deletion and hooks; migrations (repo, admin:org);
 * organizations and their hooks; the user. Not site_admin: `hublet admin` remotely takes a site admin's --token.
 */
export const CLI_SCOPES = ['gist', 'repo', 'delete_repo', 'admin:repo_hook', 'admin:org', 'admin:org_hook', 'user'];

const GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';
/** RFC 8628 §3.5: a slow_down adds 5 seconds to the interval, for this and every later request. */
const SLOW_DOWN_MS = 5000;

/** How the flow waits: the real clock, or a test's. */
export interface Timing {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realTiming: Timing = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

interface DeviceCode {
  device_code: string;
  user_code: string;
  verification_uri: string;
  expires_in: number;
  interval: number;
}

interface TokenAnswer {
  access_token?: string;
  error?: string;
  error_description?: string;
  interval?: number;
}

const post = (client: Client, path: string, body: Record<string, string>) =>
  client.request('POST', path, { body, headers: { accept: 'application/json' } });

/** The server's error for a refused request: its OAuth error and description, or its message, or the status. */
function refusal(res: ApiResponse): string {
  const b = (typeof res.body === 'object' && res.body ? res.body : {}) as TokenAnswer & { message?: string };
  if (b.error) return b.error_description ? `${b.error}: ${b.error_description}` : b.error;
  return b.message ?? (res.text || `HTTP ${res.status}`);
}

async function requestCode(client: Client, server: string): Promise<DeviceCode> {
  const res = await post(client, '/login/device/code', { client_id: HUBLET_CLI_CLIENT_ID, scope: CLI_SCOPES.join(' ') });
  if (res.status === 404)
    throw new CliExit(EXIT.error, `hublet: ${server} does not offer sign-in with a one-time code; sign in with --token TOKEN instead`);
  const code = res.body as Partial<DeviceCode> | null;
  if (res.status !== 200 || !code?.device_code || !code.user_code || !code.verification_uri)
    throw new CliExit(EXIT.error, `hublet: ${server} did not give a sign-in code: ${refusal(res)}`);
  return {
    device_code: code.device_code,
    user_code: code.user_code,
    verification_uri: code.verification_uri,
    expires_in: Number(code.expires_in) || 900,
    interval: Number(code.interval) || 5,
  };
}

/** `15 minutes`, `1 minute`, `30 seconds`. */
function lifetime(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  if (seconds < 60) return `${seconds} seconds`;
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** Runs the device flow against the server `client` speaks to (without a token); answers the approved token. */
export async function deviceLogin(client: Client, server: string, io: IO, timing: Timing = realTiming): Promise<string> {
  // Ctrl-C (or SIGTERM) ends the wait wherever it is: the race below rejects with this.
  const stopped = io.stopSignal().then((signal) => {
    throw new CliExit(EXIT.error, `hublet: sign-in stopped (${signal}) before the code was approved; nothing was saved`);
  });
  stopped.catch(() => undefined);
  const race = <T>(p: Promise<T>) => Promise.race([p, stopped]);

  const code = await race(requestCode(client, server));
  io.stderr.write(
    [
      `! First copy your one-time code: ${code.user_code}`,
      `Open this URL in your browser: ${code.verification_uri}`,
      `Waiting for you to enter the code and authorize hublet CLI (the code expires in ${lifetime(code.expires_in)}; Ctrl-C to stop)…`,
      '',
    ].join('\n'),
  );
  const expired = new CliExit(
    EXIT.error,
    `hublet: the code ${code.user_code} expired before it was approved; nothing was saved. Run hublet auth login --server ${server} again`,
  );
  const deadline = timing.now() + code.expires_in * 1000;
  let interval = code.interval * 1000;
  for (;;) {
    await race(timing.sleep(interval));
    if (timing.now() >= deadline) throw expired;
    const res = await race(
      post(client, '/login/oauth/access_token', { client_id: HUBLET_CLI_CLIENT_ID, device_code: code.device_code, grant_type: GRANT_TYPE }),
    );
    const answer = (typeof res.body === 'object' && res.body ? res.body : {}) as TokenAnswer;
    if (res.status === 200 && answer.access_token) return answer.access_token;
    switch (answer.error) {
      case 'authorization_pending':
        break;
      case 'slow_down':
        interval = Math.max(interval + SLOW_DOWN_MS, (Number(answer.interval) || 0) * 1000);
        break;
      case 'expired_token':
        throw expired;
      case 'access_denied':
        throw new CliExit(EXIT.auth, 'hublet: the sign-in was denied in the browser; nothing was saved');
      default:
        throw new CliExit(EXIT.error, `hublet: ${server} refused the sign-in: ${refusal(res)}`);
    }
  }
}
