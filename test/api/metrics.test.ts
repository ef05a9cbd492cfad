import { randomUUID } from 'node:crypto';
import { readLiveState, type RuntimeState } from '../../runtime/state';
import { createAccount } from '../factories/accounts';
import { commission, instance, ship, uid } from '../factories/events';
import { request } from '../helpers/http';

/** The value of one sample line (`name{labels} value`), 0 when the series does not exist yet. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = (match[2] ?? '').split(/,(?=[a-zA-Z_]+=")/);
    if (wanted.every((pair) => present.includes(pair))) return Number(match[3]);
  }
  return 0;
}

const apiMetrics = async (): Promise<string> => {
  const response = await request<string>('GET', '/metrics');
  expect(response.status).toBe(200);
  return response.text;
};

const state = (): RuntimeState => {
  const live = readLiveState(process.env.STACK_DIR!);
  if (!live) throw new Error('no runtime.json in STACK_DIR');
  return live;
};

describe('GET /metrics (API)', () => {
  it('answers without a key in the Prometheus text format', async () => {
    const response = await request<string>('GET', '/metrics');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.text).toContain('# TYPE traceability_http_requests_total counter');
    expect(response.text).toContain('# TYPE traceability_http_request_duration_seconds histogram');
    expect(response.text).toContain('traceability_process_cpu_seconds_total');
  });

  it('counts requests by route template and status, with their latency', async () => {
    const account = await createAccount('metrics');
    const labels = { method: 'GET', route: '/Integration/Account', status: '200' };
    const before = await apiMetrics();
    await request('GET', '/Integration/Account', { key: account.key });
    await request('GET', '/Integration/Account', { key: account.key });
    const after = await apiMetrics();
    expect(sample(after, 'traceability_http_requests_total', labels) - sample(before, 'traceability_http_requests_total', labels)).toBe(2);
    expect(
      sample(after, 'traceability_http_request_duration_seconds_count', labels) - sample(before, 'traceability_http_request_duration_seconds_count', labels),
    ).toBe(2);
    expect(sample(after, 'traceability_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBeGreaterThanOrEqual(2);
  });

  it('labels a request the key check refused with its route template too', async () => {
    const labels = { method: 'GET', route: '/Integration/Account', status: '401' };
    const before = sample(await apiMetrics(), 'traceability_http_requests_total', labels);
    expect((await request('GET', '/Integration/Account', { key: 'not-a-key' })).status).toBe(401);
    expect(sample(await apiMetrics(), 'traceability_http_requests_total', labels) - before).toBe(1);
  });

  it('never puts a raw URL in a label: unknown paths share one series', async () => {
    const account = await createAccount('metrics');
    const marker = `nope-${randomUUID()}`;
    const labels = { method: 'GET', route: '(unmatched)', status: '404' };
    const before = sample(await apiMetrics(), 'traceability_http_requests_total', labels);
    expect((await request('GET', `/Integration/${marker}`, { key: account.key })).status).toBe(404);
    const after = await apiMetrics();
    expect(after).not.toContain(marker);
    expect(sample(after, 'traceability_http_requests_total', labels) - before).toBe(1);
  });
});

describe('worker metrics (runtime.json names the ports)', () => {
  it('the worker serves its own registry: pipeline counters, and activity durations that move when a batch runs', async () => {
    const url = state().workerAppMetricsUrl!;
    const read = async () => {
      const response = await fetch(url);
      expect(response.status).toBe(200);
      return response.text();
    };
    const before = await read();
    for (const name of ['traceability_batches_started_total', 'traceability_batches_completed_total', 'traceability_batches_failed_total', 'traceability_events_persisted_total', 'traceability_inventory_rejections_total']) {
      expect(before).toContain(`# TYPE ${name} counter`);
    }

    const account = await createAccount('metrics');
    const batch = await request('POST', '/Integration/Events', {
      key: account.key,
      body: { Events: [commission({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('SALMON', uid('LOT'), 5))] },
    });
    expect(batch.status).toBe(200);
    const after = await read();
    const count = (text: string) => sample(text, 'traceability_activity_duration_seconds_count', { activity: 'persistEvents', outcome: 'completed' });
    expect(count(after) - count(before)).toBeGreaterThanOrEqual(1);
    const moved = (name: string, labels: Record<string, string> = {}) => sample(after, name, labels) - sample(before, name, labels);
    expect(moved('traceability_batches_started_total')).toBeGreaterThanOrEqual(1);
    expect(moved('traceability_batches_completed_total')).toBeGreaterThanOrEqual(1);
    expect(moved('traceability_events_persisted_total', { type: 'commission' })).toBeGreaterThanOrEqual(1);
  });

  it('counts a batch refused for insufficient inventory as failed, with the rejection by event type', async () => {
    const url = state().workerAppMetricsUrl!;
    const read = async () => (await fetch(url)).text();
    const account = await createAccount('metrics');
    const before = await read();
    const refused = await request('POST', '/Integration/Events', {
      key: account.key,
      body: { Events: [ship({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('SALMON', uid('LOT'), 5))] },
    });
    expect(refused.status).toBe(400);
    const after = await read();
    const moved = (name: string, labels: Record<string, string>) => sample(after, name, labels) - sample(before, name, labels);
    expect(moved('traceability_batches_failed_total', { reason: 'InsufficientInventory' })).toBeGreaterThanOrEqual(1);
    expect(moved('traceability_inventory_rejections_total', { type: 'ship' })).toBeGreaterThanOrEqual(1);
  });

  it('the Temporal SDK serves its own metrics on the other port', async () => {
    const response = await fetch(state().workerSdkMetricsUrl!);
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/^temporal_/m);
  });
});
