// Posts one delivery with undici: keep-alive pools per origin, destinations checked after DNS at connect time, one timeout.
import { Agent, request } from 'undici';
import { parseAllowedHosts } from '../net/allowed-hosts.js';
import { errorCodes, timedOut } from '../net/error-codes.js';
import { guardedConnector, refusedReason } from '../net/guarded-connect.js';

/** Bytes of a response body kept in the delivery record; the rest is read and dropped (up to DRAIN_LIMIT). */
const RESPONSE_BODY_LIMIT = 64 * 1024;
const DRAIN_LIMIT = 1024 * 1024;

export interface Attempt {
  /** The receiver's status, 0 when there was no response. */
  statusCode: number;
  /** GitHub's status text: `OK`, `Invalid HTTP Response: 500`, `timed out`, `failed to connect`, … */
  status: string;
  responseHeaders: Record<string, string>;
  responseBody: string | null;
  /** Seconds. */
  duration: number;
}

export interface Outgoing {
  url: string;
  insecureSsl: boolean;
  headers: Record<string, string>;
  body: Buffer;
}

const CERT_CODES = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS_CERT/;
const TLS_CODES = /^ERR_SSL|^ERR_TLS|^EPROTO$/;

/** GitHub's status text for an attempt that got no response. */
function failureStatus(err: unknown): string {
  const refused = refusedReason(err);
  if (refused) return `Destination refused: ${refused}`;
  const codes = errorCodes(err);
  if (timedOut(codes)) return 'timed out';
  if (codes.includes('ENOTFOUND') || codes.includes('EAI_AGAIN')) return 'failed to connect: host not found';
  if (codes.some((c) => CERT_CODES.test(c))) return 'Peer certificate cannot be authenticated with given CA certificates';
  if (codes.some((c) => TLS_CODES.test(c))) return 'SSL connect error';
  return 'failed to connect';
}

function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

export interface TransportOptions {
  allowedHosts: string;
  timeoutMs: number;
  /** Sockets per origin. */
  connections: number;
}

/** One per app: two agents (certificates verified, or not for `insecure_ssl: 1`), each pooling keep-alive sockets per origin. */
export class Transport {
  private readonly verified: Agent;
  private readonly insecure: Agent;
  private readonly timeoutMs: number;

  constructor(options: TransportOptions) {
    const policy = parseAllowedHosts(options.allowedHosts);
    this.timeoutMs = options.timeoutMs;
    const agent = (rejectUnauthorized: boolean) =>
      new Agent({
        connect: guardedConnector(policy, rejectUnauthorized, options.timeoutMs),
        connections: options.connections,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
        keepAliveTimeout: 4_000,
      });
    this.verified = agent(true);
    this.insecure = agent(false);
  }

  /** Posts the body; never throws for network trouble (it is the attempt's status). Redirects are not followed. */
  async post(out: Outgoing): Promise<Attempt> {
    const started = process.hrtime.bigint();
    const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      const res = await request(out.url, {
        method: 'POST',
        headers: out.headers,
        body: out.body,
        dispatcher: out.insecureSsl ? this.insecure : this.verified,
        signal,
      });
      const chunks: Buffer[] = [];
      let kept = 0;
      let seen = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        seen += chunk.length;
        if (kept < RESPONSE_BODY_LIMIT) {
          const part = chunk.subarray(0, RESPONSE_BODY_LIMIT - kept);
          chunks.push(part);
          kept += part.length;
        }
        if (seen > DRAIN_LIMIT) {
          res.body.destroy();
          break;
        }
      }
      const code = res.statusCode;
      return {
        statusCode: code,
        status: code >= 200 && code < 300 ? 'OK' : `Invalid HTTP Response: ${code}`,
        responseHeaders: flatHeaders(res.headers as Record<string, string | string[] | undefined>),
        responseBody: Buffer.concat(chunks).toString('utf8'),
        duration: seconds(),
      };
    } catch (err) {
      return { statusCode: 0, status: failureStatus(err), responseHeaders: {}, responseBody: null, duration: seconds() };
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.verified.close(), this.insecure.close()]);
  }
}
