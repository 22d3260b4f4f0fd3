// Traces cost nothing when off: `hublet serve` without an OTLP endpoint never imports src/tracing/sdk.ts (nor, with it,
// anything of OpenTelemetry's SDK) and leaves the tracing slot empty, so the app registers no tracing hook and times no
// statement; with an endpoint it starts tracing before serving and stops it (sending the last spans) after. Run in
// this process, with the SDK module replaced by a recorder. And which OTEL_* settings ask for traces at all, and which
// the real module refuses before starting anything.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { run } from '../../src/cli/program.js';
import { activeTracing, tracesWanted } from '../../src/tracing/spans.js';
import { fakeIO } from '../helpers/cli-inprocess.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

const sdk = vi.hoisted(() => ({ imported: 0, started: [] as NodeJS.ProcessEnv[], stopped: 0 }));
vi.mock('../../src/tracing/sdk.js', () => {
  sdk.imported++;
  return {
    startTracing(env: NodeJS.ProcessEnv) {
      sdk.started.push(env);
      return {
        async shutdown() {
          sdk.stopped++;
        },
      };
    },
  };
});

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-traces-off-'));
const databases: TestDatabase[] = [];
afterAll(async () => {
  for (const d of databases) await d.drop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** `hublet serve` in this process until it listens; `during` runs then, before the stop (SIGTERM). */
async function serveOnce(name: string, env: NodeJS.ProcessEnv, during: () => void): Promise<number> {
  const dataDir = path.join(tmp, name);
  fs.mkdirSync(dataDir);
  const db = await createTestDatabase(dataDir);
  databases.push(db);
  const fake = fakeIO();
  const exit = run(['node', 'hublet', 'serve', '--port', '0', '--data', dataDir, '--database', db.url], fake.io, {
    PATH: process.env.PATH,
    HOME: tmp,
    HUBLET_LOG_LEVEL: 'silent',
    ...env,
  });
  for (let i = 0; i < 300 && !fake.stdout().includes('hublet listening on'); i++) await new Promise((r) => setTimeout(r, 50));
  expect(fake.stdout()).toContain('hublet listening on');
  during();
  fake.stop('SIGTERM');
  return exit;
}

describe('hublet serve and the OTEL_* settings', { timeout: 60_000 }, () => {
  it('imports nothing of tracing and leaves the slot empty; with it, tracing is started before serving, stopped after', async () => {
    const off = await serveOnce('off', {}, () => expect(activeTracing()).toBeUndefined());
    expect(off).toBe(0);
    expect(sdk.imported).toBe(0);

    const endpoint = 'http://127.0.0.1:4318';
    const on = await serveOnce('on', { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint }, () => {
      expect(sdk.started.map((env) => env.OTEL_EXPORTER_OTLP_ENDPOINT)).toEqual([endpoint]);
      expect(sdk.stopped).toBe(0);
    });
    expect(on).toBe(0);
    expect(sdk.imported).toBe(1);
    expect(sdk.stopped).toBe(1);
  });

  it('asks for traces with an OTLP endpoint for traces, unless the SDK or the traces exporter is turned off', () => {
    expect(tracesWanted({})).toBe(false);
    expect(tracesWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ' })).toBe(false);
    expect(tracesWanted({ OTEL_SERVICE_NAME: 'hublet', OTEL_BSP_SCHEDULE_DELAY: '100' })).toBe(false);
    expect(tracesWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracesWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
    expect(tracesWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' })).toBe(false);
    expect(tracesWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
  });

  it('refuses, in one line and before starting anything, an endpoint that is not an http(s) URL and OTLP over gRPC', async () => {
    const { startTracing } = await vi.importActual<typeof import('../../src/tracing/sdk.js')>('../../src/tracing/sdk.js');
    expect(() => startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      'OTEL_EXPORTER_OTLP_ENDPOINT: expected an http(s) URL (e.g. http://127.0.0.1:4318), got "collector:4318"',
    );
    expect(() => startTracing({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'ftp://collector/v1/traces' })).toThrow(
      'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: expected an http(s) URL',
    );
    expect(() => startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      'OTLP over gRPC is not supported',
    );
    expect(activeTracing()).toBeUndefined();
  });
});
