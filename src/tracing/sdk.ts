// Starts OpenTelemetry's Node SDK for `hublet serve`, imported by serve.ts only when an OTLP endpoint is set (spans.ts
// tracesWanted) and before the server's modules load: traces only (no metrics or logs are exported), as OTLP/HTTP JSON
// to OTEL_EXPORTER_OTLP_ENDPOINT (…/v1/traces) or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, batched (OTEL_BSP_*), with
// service.name `hublet` unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES name it; http's instrumentation (a server
// span per request) and pg's (a span per PostgreSQL statement, its text only); then the slot of spans.ts is filled.
import http from 'node:http';
import https from 'node:https';
import { trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { NodeSDK, resources } from '@opentelemetry/sdk-node';
import pg from 'pg';
import { VERSION } from '../version.js';
import { setActiveTracing } from './spans.js';
import { OpenTelemetryTracing } from './tracer.js';

/** How long a stop waits for the last spans to be sent, at most (a collector that does not answer never holds it up). */
const FLUSH_LIMIT_MS = 5000;

/**
 * Query parameters whose values never reach a span's `url.query`: http's instrumentation's own list (signed cloud URLs)
 * and the ones the access log masks (src/http/logging.ts: tokens, secrets, OAuth codes and state, invitations), with
 * the signature of archive download URLs (src/migrations/signing.ts).
 */
const REDACTED_QUERY = [
  'sig',
  'Signature',
  'AWSAccessKeyId',
  'X-Goog-Signature',
  'X-Amz-Signature',
  'X-Amz-Credential',
  'X-Amz-Security-Token',
  'access_token',
  'token',
  'client_secret',
  'secret',
  'password',
  'code',
  'device_code',
  'state',
  'invitation',
  'authenticity_token',
  'signature',
];

export interface StartedTracing {
  /** Sends the spans not sent yet (within FLUSH_LIMIT_MS) and stops tracing; serve calls it once the app is closed. */
  shutdown(): Promise<void>;
}

/** An instrumentation's patches, as `getModuleDefinitions()` lists them (InstrumentationBase's, public). */
interface Instrumented {
  getModuleDefinitions(): Array<{ name: string; moduleExports?: unknown; patch?: (exports: unknown, version?: string) => unknown }>;
}

/**
 * Applies an instrumentation's patches to the modules given. The SDK patches modules as `require` loads them, which
 * neither hublet's ES modules nor the single executable (ncc's bundle) go through: the modules the app really uses are
 * handed over here. Each patch is safe to apply twice (http's keeps a flag; pg's unwraps before it wraps).
 */
function patchModules(instrumentation: Instrumented, modules: Record<string, object>): void {
  for (const definition of instrumentation.getModuleDefinitions()) {
    const exports = modules[definition.name];
    if (exports && definition.patch) definition.moduleExports = definition.patch(exports);
  }
}

/** Where spans go: the traces endpoint as given, else the general one plus `/v1/traces` (the exporter reads them too). */
function endpoint(env: NodeJS.ProcessEnv): { name: string; value: string } {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return { name: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', value: traces };
  return { name: 'OTEL_EXPORTER_OTLP_ENDPOINT', value: env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() ?? '' };
}

/**
 * Starts tracing, or throws an Error whose message is one line for the user (an endpoint that is not an http(s) URL,
 * or gRPC asked for), having started nothing. `env` is what is checked; the SDK reads its variables from the process's
 * environment itself (the same object in `serve`).
 */
export function startTracing(env: NodeJS.ProcessEnv = process.env): StartedTracing {
  const where = endpoint(env);
  let url: URL | undefined;
  try {
    url = new URL(where.value);
  } catch {
    // reported below
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new Error(`${where.name}: expected an http(s) URL (e.g. http://127.0.0.1:4318), got ${JSON.stringify(where.value)}`);
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL)?.trim();
  if (protocol === 'grpc')
    throw new Error(`OTLP over gRPC is not supported: traces are sent as OTLP/HTTP (JSON) to the collector's HTTP port (4318)`);

  const httpInstrumentation = new HttpInstrumentation({
    // Server spans only: webhook deliveries go out through undici, and the exporter's own requests are not traced.
    disableOutgoingRequestInstrumentation: true,
    redactedQueryParamsServer: REDACTED_QUERY,
    // Prometheus's scrapes of the metrics listener (the API's port never serves /metrics).
    ignoreIncomingRequestHook: (request) => request.url === '/metrics',
  });
  // Statement text only (Kysely's placeholders): never the values; and no span outside a request, delivery or export.
  const pgInstrumentation = new PgInstrumentation({ enhancedDatabaseReporting: false, requireParentSpan: true });
  const sdk = new NodeSDK({
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (the env detector) take precedence over these.
    resource: resources.defaultResource().merge(resources.resourceFromAttributes({ 'service.name': 'hublet', 'service.version': VERSION })),
    // Not the process detector: it would record the command line, which may hold a database URL with its password.
    resourceDetectors: [resources.envDetector, resources.hostDetector],
    traceExporter: new OTLPTraceExporter(),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [httpInstrumentation, pgInstrumentation],
  });
  sdk.start();
  patchModules(httpInstrumentation, { http, https });
  patchModules(pgInstrumentation, { pg });
  setActiveTracing(new OpenTelemetryTracing(trace.getTracer('hublet', VERSION)));
  return {
    async shutdown() {
      setActiveTracing(undefined);
      let timer: NodeJS.Timeout | undefined;
      const limit = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, FLUSH_LIMIT_MS);
        timer.unref();
      });
      try {
        await Promise.race([sdk.shutdown().catch(() => {}), limit]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
