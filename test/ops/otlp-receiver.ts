// A test OTLP/HTTP receiver: node:http on 127.0.0.1:0 taking POST /v1/traces in OTLP's JSON encoding (what hublet's
// exporter sends), keeping each request's body as it came and each span decoded (attributes as plain values).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

type Value = string | number | boolean | Value[] | undefined;

interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
}

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: OtlpValue }[];
  links?: { traceId: string; spanId: string }[];
  status?: { code?: number };
}

interface OtlpRequest {
  resourceSpans: {
    resource?: { attributes?: { key: string; value: OtlpValue }[] };
    scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[];
  }[];
}

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Absent for a trace's root span. */
  parentSpanId?: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, Value>;
  links: { traceId: string; spanId: string }[];
  /** 0 unset, 1 ok, 2 error. */
  statusCode: number;
  /** The instrumentation scope: `@opentelemetry/instrumentation-http`, `hublet`, … */
  scope: string;
  resource: Record<string, Value>;
}

export interface OtlpReceiver {
  /** What OTEL_EXPORTER_OTLP_ENDPOINT names (the exporter adds `/v1/traces`). */
  url: string;
  spans: ReceivedSpan[];
  /** Every request body as received (to show what never reached the receiver at all). */
  bodies: string[];
  /** Requests other than a JSON POST to /v1/traces. */
  refused: string[];
  /** Resolves with what `find` returns once it returns something (checked at each arrival); rejects after `timeoutMs`. */
  waitFor<T>(what: string, find: (spans: ReceivedSpan[]) => T | undefined, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

function decode(v: OtlpValue | undefined): Value {
  if (!v) return undefined;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(decode);
  return undefined;
}

function attributes(list: { key: string; value: OtlpValue }[] | undefined): Record<string, Value> {
  return Object.fromEntries((list ?? []).map((a) => [a.key, decode(a.value)]));
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const refused: string[] = [];
  const arrivals = new Set<() => void>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      bodies.push(body);
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !String(req.headers['content-type']).startsWith('application/json')) {
        refused.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
        res.writeHead(415).end();
        return;
      }
      const parsed = JSON.parse(body) as OtlpRequest;
      for (const rs of parsed.resourceSpans) {
        const resource = attributes(rs.resource?.attributes);
        for (const ss of rs.scopeSpans)
          for (const s of ss.spans)
            spans.push({
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId || undefined,
              name: s.name,
              kind: s.kind,
              attributes: attributes(s.attributes),
              links: (s.links ?? []).map((l) => ({ traceId: l.traceId, spanId: l.spanId })),
              statusCode: s.status?.code ?? 0,
              scope: ss.scope.name,
              resource,
            });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      for (const notify of arrivals) notify();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    bodies,
    refused,
    waitFor<T>(what: string, find: (spans: ReceivedSpan[]) => T | undefined, timeoutMs = 30_000): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const check = () => {
          const found = find(spans);
          if (found === undefined) return;
          done();
          resolve(found);
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no ${what} among the ${spans.length} spans received: ${spans.map((s) => s.name).join(', ')}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          arrivals.delete(check);
        };
        arrivals.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
