import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WorkflowNotFoundError } from '@temporalio/client';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { kindSpec } from '../../api/routes/imports/kinds';
import { startImportWorkflow } from '../../batches/import-workflow';
import { RECONCILER_WORKFLOW_ID } from '../../batches/reconciler';
import { findOrCreateBatch } from '../../db/repositories/batches';
import { insertImport } from '../../db/repositories/imports';
import { headerColumns } from '../../domain/spreadsheet-rows';
import { TASK_QUEUE } from '../../platform/config';
import { waitFor } from '../../platform/net';
import type { ReconcileBatchesResult } from '../../pipeline/contracts';
import { reconcileNowSignal } from '../../workflows/reconciler-signals';
import * as reconciler from '../helpers/reconciler';
import { createAccount, createSupportKey, type TestAccount } from '../factories/accounts';
import { commission, instance, uid } from '../factories/events';
import { models, sql } from '../helpers/db';
import { closeChromium, launchChromium } from '../helpers/browser';
import { apiUrl, client, request } from '../helpers/http';
import { temporalClient } from '../helpers/temporal';

interface ImportBody {
  importId: string;
  status: string;
  eventsStored: number;
  batches: { batchId: string; status: string; events: number; firstRow: number; lastRow: number }[];
  errors: { row: number | null; column: string | null; code: string; message: string }[];
}

/**
 * An import whose split step fails for good, and one the API stored but never started (issue 29): each
 * ends Failed with its reason, or is started by the reconciler, instead of staying Accepted.
 */
describe('imports that fail or are stranded before their split', () => {
  const temporal = temporalClient();
  let account: TestAccount;
  let place: string;
  let fish: string;
  const HEADER =
    'Id,Location.Id,EventTime,EventTimeZone,ProductInstances.Quantity,ProductInstances.LotSerial,ProductInstances.Product.Id';

  beforeAll(async () => {
    account = await createAccount('imp-rec');
    place = uid('LOC');
    fish = uid('COD');
    const seed = commission({ location: place, time: '2024-01-01T00:00:00Z' }, instance(fish, uid('SEED'), 1));
    const created = await client(account.key).post('/Integration/Events', { Events: [seed] });
    if (created.status !== 200) throw new Error(`seeding failed: ${created.text}`);
  });

  const header = () => {
    const spec = kindSpec('commission');
    const found = headerColumns(HEADER.split(','), spec.columns, spec.key);
    if (!found.ok) throw new Error(JSON.stringify(found.errors));
    return found.columns;
  };

  const newImport = (sizeBytes: number) => ({
    id: randomUUID(),
    accountId: account.id,
    kind: 'commission',
    format: 'csv' as const,
    fileName: 'stored.csv',
    sizeBytes,
    idempotencyKey: null,
    requestHash: null,
    requestId: null,
  });

  /**
   * A commission CSV stored the way an upload of an earlier version stored one (the file, its header
   * checked, for the split step to read), with no workflow started.
   */
  async function storedFile(text: string): Promise<string> {
    const file = path.join(os.tmpdir(), `import-${randomUUID()}.csv`);
    fs.writeFileSync(file, text);
    try {
      const row = await insertImport(models(), newImport(Buffer.byteLength(text)), async (store) => {
        await store.storeFile(file);
        return { columns: header(), rowsRead: text.split('\n').length - 2, errors: null };
      });
      return row.id;
    } finally {
      fs.rmSync(file, { force: true });
    }
  }

  /**
   * `n` commission rows stored the way the upload stores them (one chunk's batch, Accepted), with no
   * workflow started: the API died, or Temporal was away, between the two. Stored long enough ago for the
   * reconciler, the import and its batch both.
   */
  async function storedChunk(run: string, n: number): Promise<{ importId: string; batchId: string }> {
    const row = await insertImport(models(), newImport(0), async (store) => {
      await store.storeChunk({
        seq: 0,
        firstRow: 2,
        lastRow: n + 1,
        events: Array.from({ length: n }, (_, i) => ({
          $type: 'commission',
          Id: `${run}-${i}`,
          Location: { Id: place },
          EventTime: '2024-03-01T10:00:00',
          EventTimeZone: '+00:00',
          ProductInstances: [{ Quantity: 1, LotSerial: `${run}-${i}`, Product: { Id: fish } }],
        })),
        provenance: Array.from({ length: n }, (_, i) => ({ row: i + 2, lists: { ProductInstances: [i + 2] } })),
      });
      return { columns: header(), rowsRead: n, errors: null };
    });
    const [chunk] = (
      await sql().query<{ batch_id: string }>('SELECT batch_id FROM import_batches WHERE import_id = $1', [row.id])
    ).rows;
    await sql().query(`UPDATE imports SET submitted_at = now() - interval '10 minutes' WHERE id = $1`, [row.id]);
    await sql().query(`UPDATE batches SET submitted_at = now() - interval '10 minutes' WHERE id = $1`, [
      chunk.batch_id,
    ]);
    return { importId: row.id, batchId: chunk.batch_id };
  }

  const rows = (run: string, n: number) =>
    Array.from({ length: n }, (_, i) => `${run}-${i},${place},2024-03-01T10:00:00,+00:00,1,${run}-${i},${fish}`);

  const statusOf = async (importId: string) =>
    (await client(account.key).get<ImportBody>(`/Integration/Imports/${importId}`)).body;

  async function settled(importId: string): Promise<ImportBody> {
    let body = await statusOf(importId);
    await waitFor(`import ${importId} to finish`, 120_000, async () => {
      body = await statusOf(importId);
      return body.status === 'Completed' || body.status === 'Failed';
    });
    return body;
  }

  const reconcileUntil = (what: string, done: () => Promise<boolean>) =>
    reconciler.reconcileUntil(temporal, what, 90_000, done);

  const storedImport = (importId: string, rowsRead: number) => ({
    id: importId,
    account_id: account.id,
    account_name: account.name,
    workflow_id: `import-${importId}`,
    kind: 'commission',
    rows_read: rowsRead,
    file_name: 'stored.csv',
    request_id: null,
  });
  const startedBy = (importId: string) => startImportWorkflow(temporal, TASK_QUEUE, storedImport(importId, 0));

  const storedEventCount = async (run: string) =>
    Number(
      (
        await sql().query<{ n: string }>(
          'SELECT count(*) AS n FROM events WHERE account_id = $1 AND external_event_id LIKE $2',
          [account.id, `${run}-%`],
        )
      ).rows[0].n,
    );

  let brokenImport: string;

  it('a file the split step cannot read is Failed with the reason; the chunk it stored before is never run', async () => {
    const run = uid('BROKEN');
    // 1,500 good rows (a first chunk of 1,000 is stored as a batch), then a quote never closed.
    const text = [HEADER, ...rows(run, 1500), `${run}-x,"${place},2024-03-01T10:00:00,+00:00,1,L,${fish}`].join('\n');
    const importId = await storedFile(`${text}\n`);
    brokenImport = importId;
    // A chunk's batch an earlier attempt stored and died before recording (so it is found by its key alone).
    const { batch: stray } = await findOrCreateBatch({
      accountId: account.id,
      mode: 'async',
      request: {
        Events: [commission({ location: place, time: '2024-03-01T10:00:00Z' }, instance(fish, uid('STRAY'), 1))],
      },
      eventCount: 1,
      idempotencyKey: `import-${importId}-7`,
    });
    await startedBy(importId);

    const done = await settled(importId);
    expect(done.status).toBe('Failed');
    expect(done.errors[0]).toMatchObject({ row: null, column: null, code: 'InternalError' });
    expect(done.errors[0].message).toMatch(/could not be split into batches: The CSV cannot be read after row/);
    expect(done.eventsStored).toBe(0);
    expect(done.batches).toEqual([
      { batchId: expect.any(String), status: 'Failed', events: 1000, firstRow: 2, lastRow: 1001 },
    ]);
    // The list says it too.
    const listed = (await client(account.key).get('/Integration/Imports?PageSize=100')).body.results as {
      importId: string;
      status: string;
      errorCount: number;
    }[];
    expect(listed.find((r) => r.importId === importId)).toMatchObject({ status: 'Failed' });

    // In the Temporal UI the import's run is Failed with the same reason, after one attempt (unreadable
    // is not retried); the chunk's batch was never started. The run ends just after it marks the import
    // Failed: its result is waited for before its status is read.
    const handle = temporal.workflow.getHandle(`import-${importId}`);
    await expect(handle.result()).rejects.toMatchObject({
      cause: { message: expect.stringMatching(/could not be split into batches: The CSV cannot be read/) },
    });
    expect((await handle.describe()).status.name).toBe('FAILED');
    await expect(
      temporal.workflow.getHandle(`batch-${account.id}-import-${importId}-0`).describe(),
    ).rejects.toBeInstanceOf(WorkflowNotFoundError);

    // A reconciler pass later, the chunk's batch is still Failed and nothing of it stored.
    await sql().query(`UPDATE batches SET submitted_at = now() - interval '10 minutes' WHERE id = $1`, [
      done.batches[0].batchId,
    ]);
    await sql().query(`UPDATE batches SET submitted_at = now() - interval '10 minutes' WHERE id = $1`, [stray.id]);
    await temporal.workflow.getHandle(RECONCILER_WORKFLOW_ID).signal(reconcileNowSignal);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect((await statusOf(importId)).batches[0].status).toBe('Failed');
    const strayNow = await sql().query<{ status: string }>('SELECT status FROM batches WHERE id = $1', [stray.id]);
    expect(strayNow.rows[0].status).toBe('Failed');
    expect(await storedEventCount(run)).toBe(0);
  }, 180_000);

  it('the /imports page lists the failed import and shows its reason when opened', async () => {
    const context = await launchChromium('imports-failed');
    try {
      const page = await context.newPage();
      await page.goto(`${apiUrl()}/imports`);
      await page.fill('#key', account.key);
      await page.click('#sign-in button[type=submit]');
      const row = page.locator(`#imports-table tr[data-import-id="${brokenImport}"]`);
      await row.waitFor();
      expect(await row.locator('td').nth(3).textContent()).toBe('Failed');
      await row.locator('button.open-import').click();
      await page.waitForSelector('#errors-table');
      expect(await page.textContent('#import-status')).toBe('Failed');
      expect(await page.textContent('#import-id')).toBe(brokenImport);
      const first = await page.$$eval('#errors-table tbody tr:first-child td', (tds) =>
        tds.map((td) => td.textContent),
      );
      expect(first.slice(0, 4)).toEqual(['-', '-', '', 'InternalError']);
      expect(first[4]).toMatch(/could not be split into batches: The CSV cannot be read/);
      if (process.env.IMPORTS_SCREENSHOT)
        await page.screenshot({ path: process.env.IMPORTS_SCREENSHOT, fullPage: true });
    } finally {
      await closeChromium(context);
    }
  }, 120_000);

  it('a never-run batch of the failed import is closed: its retry and abandon are refused, and /support lists it apart, saying why', async () => {
    const { batches } = await statusOf(brokenImport);
    const batchId = batches[0].batchId;
    const shown = await client(account.key).get(`/Integration/Batches/${batchId}`);
    expect(shown.status).toBe(200);
    expect(shown.body.failedImport).toEqual({
      importId: brokenImport,
      reason: expect.stringMatching(/could not be split into batches: The CSV cannot be read/),
    });
    // A retry would store this chunk alone: part of an import that says nothing of it is stored.
    const retried = await client(account.key).post(`/Integration/Batches/${batchId}/retry`, {});
    expect(retried.status).toBe(409);
    expect(retried.body.detail).toMatch(
      new RegExp(
        `^Batch ${batchId} is a batch of import ${brokenImport}, which failed before its batches were started`,
      ),
    );
    expect(retried.body.detail).toMatch(/Upload the file again/);
    expect((await client(account.key).get(`/Integration/Batches/${batchId}`)).body.retriedBy).toBeNull();
    // It is closed already: there is nothing for support to give up on.
    const support = await createSupportKey();
    const abandoned = await client(support.key).post(`/Integration/Batches/${batchId}/abandon`, { Reason: 'cleanup' });
    expect(abandoned.status).toBe(409);
    expect(abandoned.body.detail).toMatch(new RegExp(`^Batch ${batchId} is a batch of import ${brokenImport}`));
    expect(abandoned.body.detail).toMatch(/closed already/);
    expect((await client(account.key).get(`/Integration/Batches/${batchId}`)).body.abandoned).toBeNull();
    // Nor is it an open failed batch to alert on: the import's own status says it failed.
    const metrics = (await request<string>('GET', '/metrics')).text.split('\n');
    const open = metrics.filter((line) => line.startsWith('traceability_batches_failed_open{'));
    expect(open.filter((line) => line.includes(`account="${account.name}"`) && !line.endsWith(' 0'))).toEqual([]);

    const context = await launchChromium('support-not-run');
    try {
      const page = await context.newPage();
      await page.goto(`${apiUrl()}/support`);
      await page.fill('#key', account.key);
      await page.click('button[type=submit]');
      const closedRow = page.locator(`#closed tr[data-batch-id="${batchId}"]`);
      await closedRow.waitFor();
      expect(await closedRow.locator('td.case').textContent()).toBe(
        `not run: import ${brokenImport} failed; upload the file again`,
      );
      expect(await page.locator(`#failed tr[data-batch-id="${batchId}"]`).count()).toBe(0);
      await closedRow.locator('button').click();
      await page.waitForSelector('#detail [data-field="Import failed"]');
      expect(await page.textContent('#detail [data-field="Import failed"]')).toMatch(
        /could not be split into batches: The CSV cannot be read/,
      );
      expect(await page.locator('#retry').count()).toBe(0);
      expect(await page.locator('#abandon').count()).toBe(0);
      if (process.env.SUPPORT_SCREENSHOT)
        await page.screenshot({ path: process.env.SUPPORT_SCREENSHOT, fullPage: true });
    } finally {
      await closeChromium(context);
    }
  }, 120_000);

  it('an import stored but never started is started by the reconciler, once, its batch as its child', async () => {
    const run = uid('STRANDED');
    const { importId, batchId } = await storedChunk(run, 3);
    expect((await statusOf(importId)).status).toBe('Accepted');

    await reconcileUntil(
      `the reconciler to start import ${importId}`,
      async () => (await statusOf(importId)).status !== 'Accepted',
    );
    expect(await settled(importId)).toMatchObject({ status: 'Completed', eventsStored: 3, errors: [] });
    expect(await storedEventCount(run)).toBe(3);
    // Its workflow is the one the API would have started, and the reconciler's history says it started it.
    expect(await temporal.workflow.getHandle(`import-${importId}`).result()).toEqual({
      batches: 1,
      completed: 1,
      failed: 0,
    });
    const { events } = await temporal.workflow.getHandle(RECONCILER_WORKFLOW_ID).fetchHistory();
    const started = events!.flatMap((event) => {
      const payload = event.activityTaskCompletedEventAttributes?.result?.payloads?.[0];
      return payload
        ? (defaultPayloadConverter.fromPayload<ReconcileBatchesResult>(payload as Payload).importsStarted ?? [])
        : [];
    });
    expect(started.filter((id) => id === importId)).toHaveLength(1);
    // Its batch, Accepted as long, was left to the import: started as its child, not on its own.
    const batch = await temporal.workflow.getHandle(`batch-${account.id}-import-${importId}-0`).describe();
    expect(batch.parentExecution?.workflowId).toBe(`import-${importId}`);
    expect(started).not.toContain(batchId);
    expect(
      events!.flatMap((event) => {
        const payload = event.activityTaskCompletedEventAttributes?.result?.payloads?.[0];
        return payload ? defaultPayloadConverter.fromPayload<ReconcileBatchesResult>(payload as Payload).started : [];
      }),
    ).not.toContain(batchId);
  }, 180_000);

  it('an import stored by an earlier version (its file, never split) is split and run when the reconciler starts it', async () => {
    const run = uid('EARLIER');
    const importId = await storedFile([HEADER, ...rows(run, 2), ''].join('\n'));
    await sql().query(`UPDATE imports SET submitted_at = now() - interval '10 minutes' WHERE id = $1`, [importId]);
    await reconcileUntil(
      `the reconciler to start import ${importId}`,
      async () => (await statusOf(importId)).status !== 'Accepted',
    );
    expect(await settled(importId)).toMatchObject({ status: 'Completed', eventsStored: 2, errors: [] });
  }, 180_000);

  it('an import whose workflow was terminated before it started its batches is recorded Failed by the reconciler, its batch never run', async () => {
    const run = uid('TERMINATED');
    const { importId, batchId } = await storedChunk(run, 2);
    // Started on a queue no worker polls, so it is terminated before its split step runs.
    const handle = await startImportWorkflow(temporal, `nobody-${uid('q')}`, storedImport(importId, 2));
    await handle.terminate('the test: an operator terminated it');

    await reconcileUntil(
      `the reconciler to record import ${importId}`,
      async () => (await statusOf(importId)).status !== 'Accepted',
    );
    const done = await statusOf(importId);
    expect(done.status).toBe('Failed');
    expect(done.errors[0].message).toMatch(/ended \(TERMINATED\) before it started its batches/);
    // Its batch, stored with the upload, is Failed and never run.
    expect(done.batches).toEqual([{ batchId, status: 'Failed', events: 2, firstRow: 2, lastRow: 3 }]);
    await expect(
      temporal.workflow.getHandle(`batch-${account.id}-import-${importId}-0`).describe(),
    ).rejects.toBeInstanceOf(WorkflowNotFoundError);
    expect(await storedEventCount(run)).toBe(0);
  }, 180_000);
});
