import { randomUUID } from 'node:crypto';
import { readLiveState, type RuntimeState } from '../../supervisor/state';
import { createAccount, createSupportKey } from '../factories/accounts';
import { commission, instance, ship, uid } from '../factories/events';
import { jsonCommission, jsonInstance, jsonTransform, urnOf } from '../factories/json-events';
import { sql } from '../helpers/db';
import { client, request } from '../helpers/http';

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
    expect(
      sample(after, 'traceability_http_requests_total', labels) -
        sample(before, 'traceability_http_requests_total', labels),
    ).toBe(2);
    expect(
      sample(after, 'traceability_http_request_duration_seconds_count', labels) -
        sample(before, 'traceability_http_request_duration_seconds_count', labels),
    ).toBe(2);
    expect(
      sample(after, 'traceability_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' }),
    ).toBeGreaterThanOrEqual(2);
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

const PIPELINE = [
  'traceability_batches_started_total',
  'traceability_batches_completed_total',
  'traceability_batches_failed_total',
  'traceability_events_persisted_total',
  'traceability_inventory_rejections_total',
  'traceability_activity_duration_seconds',
];

async function settled(key: string, url: string): Promise<string> {
  for (let i = 0; i < 300; i++) {
    const { status } = (await client(key).get(url)).body as { status: string };
    if (status === 'Completed' || status === 'Failed') return status;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not finish`);
}

describe('what each process exports', () => {
  it("the worker exports no HTTP counters (a metric a process never moves would read 0); the API the pipeline's too, which its own worker runs for small sync batches", async () => {
    const api = await apiMetrics();
    for (const name of PIPELINE) expect(api).toContain(`# TYPE ${name} `);
    const worker = await (await fetch(state().workerAppMetricsUrl!)).text();
    for (const name of ['traceability_http_requests_total', 'traceability_batch_requests_refused_total'])
      expect(worker).not.toContain(`# TYPE ${name} `);
  });

  it('counts event requests refused before they became batches, by route and error code', async () => {
    const account = await createAccount('metrics');
    const labels = { route: '/Integration/Events/async', code: 'Required' };
    const before = sample(await apiMetrics(), 'traceability_batch_requests_refused_total', labels);
    const refused = await request('POST', '/Integration/Events/async', {
      key: account.key,
      body: { Events: [{ $type: 'commission' }] },
    });
    expect(refused.status).toBe(400);
    expect(sample(await apiMetrics(), 'traceability_batch_requests_refused_total', labels) - before).toBe(1);
  });

  it('a failed batch shows in the failed-batches gauge by account and code until a retry completes', async () => {
    const account = await createAccount('metrics');
    const labels = { account: account.name, code: 'InsufficientInventory' };
    const lot = uid('LOT');
    const api = client(account.key);
    const accepted = await api.post('/Integration/Events/async', {
      Events: [ship({ location: 'DOCK', time: '2024-03-02T00:00:00Z' }, instance('SALMON', lot, 5))],
    });
    expect(await settled(account.key, accepted.body.statusUrl)).toBe('Failed');
    expect(sample(await apiMetrics(), 'traceability_batches_failed_open', labels)).toBe(1);

    expect(
      (
        await api.post('/Integration/Events', {
          Events: [commission({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('SALMON', lot, 5))],
        })
      ).status,
    ).toBe(200);
    const retry = await api.post(`/Integration/Batches/${accepted.body.batchId}/retry`);
    expect(await settled(account.key, retry.body.statusUrl)).toBe('Completed');
    expect(sample(await apiMetrics(), 'traceability_batches_failed_open', labels)).toBe(0);
  });

  it('a sync call answered with its refusal (400) is no open case; the same refusal sent async is one', async () => {
    const account = await createAccount('metrics');
    const labels = { account: account.name, code: 'InsufficientInventory' };
    const api = client(account.key);
    const overdraw = () => ({
      Events: [ship({ location: 'DOCK', time: '2024-03-02T00:00:00Z' }, instance('SALMON', uid('LOT'), 5))],
    });
    const sync = await api.post('/Integration/Events', overdraw());
    expect(sync.status).toBe(400);
    // POST /Integration/JSON waits too: a transform taking more of a lot than was commissioned.
    const at = { locationUrn: urnOf('location'), partnerUrn: urnOf('party') };
    const [product, lot] = [urnOf('product'), uid('LOT')];
    expect(
      (await api.post('/Integration/JSON', { Events: [jsonCommission(at, jsonInstance(product, lot, 4))] })).status,
    ).toBe(200);
    const json = await api.post('/Integration/JSON', {
      Events: [
        jsonTransform(
          { ...at, time: '2024-03-03T10:00:00Z' },
          [jsonInstance(product, lot, 5)],
          [jsonInstance(urnOf('product'), uid('OUT'), 5)],
        ),
      ],
    });
    expect(json.status).toBe(400);
    const accepted = await api.post('/Integration/Events/async', overdraw());
    expect(await settled(account.key, accepted.body.statusUrl)).toBe('Failed');
    expect(sample(await apiMetrics(), 'traceability_batches_failed_open', labels)).toBe(1);

    const { rows } = await sql().query(
      `SELECT mode, refusal_answered_at IS NOT NULL AS answered FROM batches WHERE account_id = $1 AND status = 'Failed' ORDER BY seq`,
      [account.id],
    );
    expect(rows).toEqual([
      { mode: 'sync', answered: true },
      { mode: 'json', answered: true },
      { mode: 'async', answered: false },
    ]);
    const support = await createSupportKey();
    const view = await client(support.key).get(`/Integration/Batches?Status=Failed&Account=${account.name}`);
    expect(
      view.body.results.map((b: { mode: string; refusalAnswered: unknown }) => [b.mode, b.refusalAnswered]),
    ).toEqual([
      ['async', null],
      ['json', { at: expect.any(String) }],
      ['sync', { at: expect.any(String) }],
    ]);
    const answered = view.body.results.find((b: { mode: string }) => b.mode === 'sync').batchId;
    const abandon = await client(support.key).post(`/Integration/Batches/${answered}/abandon`, { Reason: 'Seen.' });
    expect(abandon.status).toBe(409);
    expect(abandon.body.detail).toContain('closed already');
  });

  it('a failed batch leaves the failed-batches gauge once its events are stored by a new batch, or once support abandons it', async () => {
    const account = await createAccount('metrics');
    const support = await createSupportKey();
    const labels = { account: account.name, code: 'InsufficientInventory' };
    const api = client(account.key);
    const failedShip = async (lot: string) => {
      const events = [ship({ location: 'DOCK', time: '2024-03-02T00:00:00Z' }, instance('SALMON', lot, 5))];
      const accepted = await api.post('/Integration/Events/async', { Events: events });
      expect(await settled(account.key, accepted.body.statusUrl)).toBe('Failed');
      return { batchId: accepted.body.batchId as string, events };
    };
    const [lot, other] = [uid('LOT'), uid('LOT')];
    const replaced = await failedShip(lot);
    // A failed retry of it: the ghost the gauge counted once its sibling completed.
    const early = await api.post(`/Integration/Batches/${replaced.batchId}/retry`);
    expect(await settled(account.key, early.body.statusUrl)).toBe('Failed');
    const abandoned = await failedShip(other);
    expect(sample(await apiMetrics(), 'traceability_batches_failed_open', labels)).toBe(2);

    // The integrator sends the same events again as a new batch, not as a retry.
    expect(
      (
        await api.post('/Integration/Events', {
          Events: [commission({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('SALMON', lot, 5))],
        })
      ).status,
    ).toBe(200);
    expect((await api.post('/Integration/Events', { Events: replaced.events })).status).toBe(200);
    expect(sample(await apiMetrics(), 'traceability_batches_failed_open', labels)).toBe(1);

    expect(
      (
        await client(support.key).post(`/Integration/Batches/${abandoned.batchId}/abandon`, {
          Reason: 'The sender withdrew it.',
        })
      ).status,
    ).toBe(200);
    expect(sample(await apiMetrics(), 'traceability_batches_failed_open', labels)).toBe(0);
  });

  it('exports the age of the oldest Accepted or Running batch, so a stuck one can raise an alert', async () => {
    const account = await createAccount('metrics');
    // A batch that has been Running for two hours: what a stuck pipeline leaves behind.
    const { rows } = await sql().query<{ id: string }>(
      `INSERT INTO batches (id, account_id, workflow_id, mode, status, event_count, request, submitted_at, started_at)
       VALUES (gen_random_uuid(), $1, 'stuck-' || gen_random_uuid(), 'async', 'Running', 0, '{"Events": []}', now() - interval '2 hours', now() - interval '2 hours')
       RETURNING id`,
      [account.id],
    );
    try {
      expect(sample(await apiMetrics(), 'traceability_batches_oldest_pending_age_seconds', {})).toBeGreaterThanOrEqual(
        7200,
      );
    } finally {
      await sql().query(`UPDATE batches SET status = 'Completed', completed_at = now() WHERE id = $1`, [rows[0].id]);
    }
  });
});

describe('worker metrics (runtime.json names the ports)', () => {
  it('the worker serves its own registry: pipeline counters, and activity durations that move when an async batch runs', async () => {
    const url = state().workerAppMetricsUrl!;
    const read = async () => {
      const response = await fetch(url);
      expect(response.status).toBe(200);
      return response.text();
    };
    const before = await read();
    for (const name of [
      'traceability_batches_started_total',
      'traceability_batches_completed_total',
      'traceability_batches_failed_total',
      'traceability_events_persisted_total',
      'traceability_inventory_rejections_total',
    ]) {
      expect(before).toContain(`# TYPE ${name} counter`);
    }

    const account = await createAccount('metrics');
    const batch = await request<{ statusUrl: string }>('POST', '/Integration/Events/async', {
      key: account.key,
      body: {
        Events: [commission({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('SALMON', uid('LOT'), 5))],
      },
    });
    expect(batch.status).toBe(202);
    expect(await settled(account.key, batch.body.statusUrl)).toBe('Completed');
    const after = await read();
    const count = (text: string) =>
      sample(text, 'traceability_activity_duration_seconds_count', { activity: 'persistEvents', outcome: 'completed' });
    expect(count(after) - count(before)).toBeGreaterThanOrEqual(1);
    const moved = (name: string, labels: Record<string, string> = {}) =>
      sample(after, name, labels) - sample(before, name, labels);
    expect(moved('traceability_batches_started_total')).toBeGreaterThanOrEqual(1);
    expect(moved('traceability_batches_completed_total')).toBeGreaterThanOrEqual(1);
    expect(moved('traceability_events_persisted_total', { type: 'commission' })).toBeGreaterThanOrEqual(1);
  });

  it("counts a batch refused for insufficient inventory as failed, with the rejection by event type, in the process that ran it (a small sync batch: the API's own worker)", async () => {
    const read = apiMetrics;
    const account = await createAccount('metrics');
    const before = await read();
    const refused = await request('POST', '/Integration/Events', {
      key: account.key,
      body: { Events: [ship({ location: 'DOCK', time: '2024-03-01T00:00:00Z' }, instance('SALMON', uid('LOT'), 5))] },
    });
    expect(refused.status).toBe(400);
    const after = await read();
    const moved = (name: string, labels: Record<string, string>) =>
      sample(after, name, labels) - sample(before, name, labels);
    expect(moved('traceability_batches_failed_total', { reason: 'InsufficientInventory' })).toBeGreaterThanOrEqual(1);
    expect(moved('traceability_inventory_rejections_total', { type: 'ship' })).toBeGreaterThanOrEqual(1);
  });

  it('the Temporal SDK serves its own metrics on the other port', async () => {
    const response = await fetch(state().workerSdkMetricsUrl!);
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/^temporal_/m);
  });
});
