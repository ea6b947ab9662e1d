// @vitest-environment node
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { EventBus } from '../../server/events';
import type { StoredReading } from '../../server/ingest/types';
import { tokenMatches } from '../../server/observe';
import { judge, READY_MESSAGES, readiness, WRITER_BACKLOG_LIMIT } from '../../server/observe/health';
import { loggerOptions, maskUrl, requestId } from '../../server/observe/logging';
import { Metrics } from '../../server/observe/metrics';

describe('maskUrl', () => {
  it('masks the values of secret query parameters and keeps the rest', () => {
    expect(maskUrl('/api/blade-auth/oauth/token?tenantId=000000&username=admin&password=S3cret!&grant_type=password')).toBe(
      '/api/blade-auth/oauth/token?tenantId=000000&username=admin&password=******&grant_type=password',
    );
    expect(maskUrl('/x?refresh_token=a.b.c&access_token=d.e.f&token=t&code=c&state=s&newPassword1=n&clientSecret=z')).toBe(
      '/x?refresh_token=******&access_token=******&token=******&code=******&state=******&newPassword1=******&clientSecret=******',
    );
    // Escaped names are judged decoded; names merely containing "code" (a device code filter) are kept.
    expect(maskUrl('/x?pass%77ord=p&deviceCode=QJ-01&current=1')).toBe('/x?pass%77ord=******&deviceCode=QJ-01&current=1');
    expect(maskUrl('/wit-xinde/device/list')).toBe('/wit-xinde/device/list');
    expect(maskUrl('/x?password')).toBe('/x?password');
  });
});

describe('the process log', () => {
  const logged = (write: (log: ReturnType<typeof Fastify>['log']) => void): Record<string, unknown> => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const { logger, ...rest } = loggerOptions('info');
    const app = Fastify({ ...rest, logger: { ...(logger as object), stream } });
    write(app.log);
    return JSON.parse(lines[0]) as Record<string, unknown>;
  };

  it('redacts headers, passwords, tokens and secrets wherever a line carries them', () => {
    const line = logged((log) =>
      log.info(
        {
          headers: { authorization: 'Basic c2FiZXI6c2FiZXJfc2VjcmV0', 'blade-auth': 'bearer x.y.z', cookie: 'sid=1', accept: 'text/html' },
          upstream: { headers: { authorization: 'Bearer m', 'x-api-key': 'k' } },
          password: 'p1',
          body: { password: 'p2', newPassword: 'p3', refresh_token: 'r', account: 'zhangsan' },
          config: { jwtSecret: 'j', clientSecret: 'c' },
        },
        'a line',
      ),
    );
    expect(line).toMatchObject({
      headers: { authorization: '******', 'blade-auth': '******', cookie: '******', accept: 'text/html' },
      upstream: { headers: { authorization: '******', 'x-api-key': '******' } },
      password: '******',
      body: { password: '******', newPassword: '******', refresh_token: '******', account: 'zhangsan' },
      config: { jwtSecret: '******', clientSecret: '******' },
    });
  });

  it('names a request by method and masked URL only', () => {
    const line = logged((log) => log.info({ req: { method: 'POST', url: '/oauth/token?password=p', headers: { authorization: 'Basic x' } } }, 'x'));
    expect(line.req).toEqual({ method: 'POST', url: '/oauth/token?password=******' });
  });

  it("takes the proxy's request id when it is a plain token, else makes one", () => {
    const of = (header?: string) => requestId({ headers: header === undefined ? {} : { 'x-request-id': header } } as never);
    expect(of('abc-123')).toBe('abc-123');
    expect(of()).toMatch(/^[0-9a-f-]{36}$/);
    expect(of('a b\n{"level":60}')).toMatch(/^[0-9a-f-]{36}$/);
    expect(of('x'.repeat(129))).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('readiness', () => {
  const healthy = { database: true, broker: { external: false, up: true }, redis: true, writerDepth: 0 };

  it('is ready when every check passes, and leaves Redis out when none is configured', () => {
    expect(judge(healthy)).toEqual({ ready: true, checks: { database: 'ok', mqtt: 'ok', redis: 'ok', writer: 'ok' }, reasons: [] });
    expect(judge({ ...healthy, redis: undefined }).checks).toEqual({ database: 'ok', mqtt: 'ok', writer: 'ok' });
  });

  it('names every failed check', () => {
    expect(judge({ database: false, broker: { external: true, up: false }, redis: false, writerDepth: WRITER_BACKLOG_LIMIT })).toEqual({
      ready: false,
      checks: { database: 'failed', mqtt: 'failed', redis: 'failed', writer: 'failed' },
      reasons: [READY_MESSAGES.database, READY_MESSAGES.externalBroker, READY_MESSAGES.redis, READY_MESSAGES.writer],
    });
    expect(judge({ ...healthy, broker: { external: false, up: false } }).reasons).toEqual([READY_MESSAGES.embeddedBroker]);
    expect(judge({ ...healthy, writerDepth: WRITER_BACKLOG_LIMIT - 1 }).ready).toBe(true);
  });

  it('counts a database that fails or does not answer in time as unreachable', async () => {
    const sources = { broker: () => ({ external: false, up: true }), writerDepth: () => 0 };
    expect((await readiness({ ...sources, query: async () => 1 })).ready).toBe(true);
    expect((await readiness({ ...sources, query: () => Promise.reject(new Error('closed')) })).checks.database).toBe('failed');
    expect((await readiness({ ...sources, query: () => new Promise(() => undefined) }, 20)).checks.database).toBe('failed');
  });
});

describe('the metrics token', () => {
  it('matches only the very token', () => {
    expect(tokenMatches('s3cret-token', 's3cret-token')).toBe(true);
    for (const given of [undefined, '', 's3cret-toke', 's3cret-token ', 'S3cret-token']) expect(tokenMatches(given, 's3cret-token')).toBe(false);
    // An empty configured token lets nobody in.
    expect(tokenMatches('', '')).toBe(false);
  });
});

describe('Metrics', () => {
  const reading = { tenantId: '100001', projectId: null, deviceId: 'd', deviceCode: 'D', pointKey: 'k', ts: 0, value: 1, raw: 1 } satisfies StoredReading;

  it('keeps a registry per app: two on one bus count alike and apart, and a closed one stops listening', async () => {
    const events = new EventBus();
    const [a, b] = [new Metrics(events, { defaults: false }), new Metrics(events, { defaults: false })];
    events.emit('readings', [reading, reading]);
    b.close();
    events.emit('readings', [reading]);
    events.emit('alarms', { tenantId: '100001', ids: ['1'], at: 0, action: 'raise' });
    events.emit('alarms', { tenantId: '100001', ids: ['1'], at: 0 });
    a.refused('malformed', 1);
    a.refused('invalid_value', 3);
    a.notified('email', 'retry');
    a.request('GET', '/wit-xinde/device/list', 200, 0.004);
    a.request('GET', undefined, 404, 0.001);
    const text = await a.text();
    expect(text).toContain('vigil_ingest_points_total 3');
    expect(await b.text()).toContain('vigil_ingest_points_total 2');
    expect(text).toContain('vigil_alarm_changes_total{action="raise"} 1');
    expect(text).toContain('vigil_ingest_refused_total{reason="invalid_value"} 3');
    expect(text).toContain('vigil_notifications_total{channel="email",outcome="retry"} 1');
    expect(text).toContain('vigil_http_request_duration_seconds_count{method="GET",route="/wit-xinde/device/list",status_class="2xx"} 1');
    expect(text).toContain('vigil_http_request_duration_seconds_count{method="GET",route="unmatched",status_class="4xx"} 1');
    a.close();
  });

  it('reads its gauges from their sources when scraped', async () => {
    const metrics = new Metrics(new EventBus(), { defaults: false });
    let depth = 5;
    let held = 1.5;
    metrics.watch({ writerDepth: () => depth, sockets: () => 2, notifierBacklog: async () => 7, sessionsAway: () => 3, mqttConnections: () => 4, mqttWaiting: () => 6, mqttHeldSeconds: () => held });
    expect(await metrics.text()).toMatch(
      /vigil_ingest_writer_queue_depth 5\n[\s\S]*vigil_realtime_sockets 2\n[\s\S]*vigil_notifier_backlog 7\n[\s\S]*vigil_mqtt_sessions_away 3\n[\s\S]*vigil_mqtt_connections 4\n[\s\S]*vigil_mqtt_connections_waiting 6\n[\s\S]*vigil_mqtt_admission_held_seconds_total 1.5\n/,
    );
    depth = 0;
    held = 2.25;
    const text = await metrics.text();
    expect(text).toContain('vigil_ingest_writer_queue_depth 0\n');
    // A counter of the admission's own total: 2.25 s after 1.5 s, not their sum.
    expect(text).toContain('vigil_mqtt_admission_held_seconds_total 2.25\n');
    metrics.close();
  });
});

describe('the Grafana dashboard (deploy/grafana/vigil-dashboard.json)', () => {
  interface Panel {
    id: number;
    type: string;
    datasource?: { uid: string };
    targets?: Array<{ expr: string; datasource: { uid: string } }>;
  }
  const dashboard = JSON.parse(readFileSync(new URL('../../deploy/grafana/vigil-dashboard.json', import.meta.url), 'utf8')) as {
    schemaVersion: number;
    __inputs: Array<{ name: string; pluginId: string }>;
    panels: Panel[];
  };

  it('imports with a Prometheus data source chosen at import', () => {
    expect(dashboard.schemaVersion).toBe(39);
    expect(dashboard.__inputs).toEqual([expect.objectContaining({ name: 'DS_PROMETHEUS', pluginId: 'prometheus' })]);
    const ids = dashboard.panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const panel of dashboard.panels.filter((p) => p.type !== 'row')) {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's placeholder for the data source chosen at import
      expect(panel.datasource?.uid).toBe('${DS_PROMETHEUS}');
      expect(panel.targets?.length).toBeGreaterThan(0);
    }
  });

  it('asks only for metrics the server exposes', async () => {
    const metrics = new Metrics(new EventBus());
    const exposed = await metrics.text();
    metrics.close();
    const asked = new Set(dashboard.panels.flatMap((panel) => (panel.targets ?? []).flatMap((target) => [...target.expr.matchAll(/\b((?:vigil|nodejs|process)_\w+?)(?:_bucket|_count|_sum)?\{/g)].map((m) => m[1]))));
    expect(asked.size).toBeGreaterThan(10);
    expect([...asked].filter((name) => !exposed.includes(`# TYPE ${name} `))).toEqual([]);
  });
});
