import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import {
  findImport,
  insertImport,
  listImports,
  type ImportContent,
  type ImportRow,
  type ImportStore,
} from '../../../db/repositories/imports';
import { sha256Hex } from '../../../domain/hashing';
import { UnreadableSpreadsheet, type SpreadsheetFormat } from '../../../platform/spreadsheets';
import { startImportWorkflow } from '../../../batches/import-workflow';
import type { APIContext, AppCustom, AppState } from '../../context';
import { problem, validationProblem, type ApiError } from '../../errors';
import { validate } from '../../middleware/validate';
import { readingBody } from '../../expect-continue';
import { declaredOver } from '../../limits';
import { pageBody, pageOf, validatePage } from '../../paging';
import { removeSpool } from '../../spooled-upload';
import { CSV_TYPE, XLSX_TYPE } from '../../../platform/spreadsheet-writing';
import { checkFile, type CheckedChunk } from './check';
import { IMPORT_KINDS, isEventKind, kindSpec, type ImportKind } from './kinds';
import { importStatusUrl, presentImport, presentImportSummary } from './presenter';
import { MAX_IMPORT_BODY_BYTES, receiveImport, TOO_LARGE, UnreadableImport } from './receive';
import { templateQuery } from './schema';
import { templateCsv, templateXlsx } from './templates';
import { browserPageRouter } from '../../browser-page';
import { IMPORTS_PAGE } from './page';

const isKind = (value: string): value is ImportKind => (IMPORT_KINDS as readonly string[]).includes(value);

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;
const START_TIMEOUT_MS = 10_000;

const tooLarge = (): ApiError => problem('import-too-large', TOO_LARGE);

const formatOf = (fileName: string): 'csv' | 'xlsx' | null => {
  const extension = /\.([A-Za-z]+)$/.exec(fileName)?.[1]?.toLowerCase();
  return extension === 'csv' || extension === 'xlsx' ? extension : null;
};

/**
 * Starts the import's workflow, or attaches to it: the one start of `processImport`. Bounded, as a batch's
 * start is: a Temporal that hangs must not hold the request.
 */
async function startImport(ctx: APIContext, row: ImportRow): Promise<void> {
  const { temporal, config } = ctx.deps;
  const start = {
    workflowId: row.workflow_id,
    input: {
      importId: row.id,
      accountId: row.account_id,
      accountName: ctx.state.account.name,
      requestId: ctx.state.requestId ?? null,
      localMaxEvents: config.pipelineLocalMaxEvents,
    },
    kind: row.kind,
    rowsRead: row.rows_read,
    fileName: row.file_name,
  };
  try {
    await temporal.withDeadline(Date.now() + START_TIMEOUT_MS, () =>
      startImportWorkflow(temporal, config.taskQueue, start),
    );
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return;
    ctx.deps.logger.error({ err: error, importId: row.id }, 'could not start the import workflow');
    throw problem('import-not-started', {
      detail: `The import was stored but could not be started now; it is started automatically within ${config.reconcileAfterSeconds + config.reconcileEverySeconds} seconds. Follow statusUrl for its result.`,
      importId: row.id,
      statusUrl: importStatusUrl(row.id),
    });
  }
}

/**
 * Reads the upload once, in the transaction that stores it: its rows are checked and, while none has
 * failed, each chunk of events is stored as the batch the import's workflow starts (no second reading
 * of the file before its batches run). Locations and products are stored by a step that reads the file
 * the upload stores. A file refused as a whole (a bad header, too many rows, unreadable) throws: nothing
 * of it is stored.
 */
async function readUpload(
  ctx: APIContext,
  filePath: string,
  format: SpreadsheetFormat,
  kind: ImportKind,
  store: ImportStore,
): Promise<ImportContent> {
  const storeChunk = ({ seq, records, lastRow }: CheckedChunk) =>
    store.storeChunk({
      seq,
      firstRow: records[0].row,
      lastRow,
      events: records.map((r) => ({ $type: kind, ...r.record })),
      provenance: records.map((r) => ({ row: r.row, lists: r.lists })),
    });
  let check;
  try {
    check = await checkFile(
      filePath,
      format,
      kind,
      { deps: ctx.deps, account: ctx.state.account },
      isEventKind(kind) ? storeChunk : undefined,
    );
  } catch (error) {
    if (error instanceof UnreadableSpreadsheet)
      throw problem('unreadable-spreadsheet', { detail: error.message, errors: { file: [error.message] } });
    throw error;
  }
  if (check.outcome === 'tooManyRows') throw tooLarge();
  if (check.outcome === 'badHeader') {
    const errors: Record<string, string[]> = {};
    for (const e of check.errors) (errors[e.column ?? '$'] ??= []).push(e.message);
    throw problem('import-header-mismatch', {
      detail: `The header row does not fit the ${kind} template: ${check.errors.map((e) => e.message).join(' ')}`,
      errors,
    });
  }
  if (!check.errors.length && !isEventKind(kind)) await store.storeFile(filePath);
  return { columns: check.columns, rowsRead: check.rowsRead, errors: check.errors.length ? check.errors : null };
}

async function upload(ctx: APIContext): Promise<void> {
  const key = ctx.get('Idempotency-Key').trim() || undefined;
  if (key && !IDEMPOTENCY_KEY.test(key)) throw problem('invalid-idempotency-key');
  if (declaredOver(ctx.req.headers, MAX_IMPORT_BODY_BYTES)) throw tooLarge();
  let received;
  readingBody(ctx.req, ctx.res);
  try {
    received = await receiveImport(ctx.req);
  } catch (error) {
    if (error instanceof UnreadableImport) throw problem('unreadable-body', { detail: error.message });
    throw error;
  }
  if (received.outcome === 'tooLarge') throw tooLarge();
  const { fields, file } = received.upload;
  try {
    const kind = fields.kind ?? (typeof ctx.query.kind === 'string' ? ctx.query.kind : undefined);
    if (!kind || !isKind(kind)) throw validationProblem({ kind: [`kind must be one of: ${IMPORT_KINDS.join(', ')}.`] });
    if (!file) throw validationProblem({ file: ['Send the spreadsheet as the multipart part named file.'] });
    const format = formatOf(file.fileName);
    if (!format) throw validationProblem({ file: [`${file.fileName || 'The file'} is neither .csv nor .xlsx.`] });

    const { account } = ctx.state;
    const requestHash = sha256Hex(`${kind}\n${file.sha256}`);
    if (key) {
      const existing = await findImport(ctx.deps.sequelize, { accountId: account.id, idempotencyKey: key });
      if (existing) return await replay(ctx, existing, key, requestHash);
    }
    let row: ImportRow;
    try {
      row = await insertImport(
        ctx.deps.sequelize,
        {
          id: randomUUID(),
          accountId: account.id,
          kind,
          format,
          fileName: file.fileName,
          sizeBytes: file.size,
          idempotencyKey: key ?? null,
          requestHash,
          requestId: ctx.state.requestId ?? null,
        },
        (store) => readUpload(ctx, file.path, format, kind, store),
      );
    } catch (error) {
      // Two first uploads with one key: the unique key decides, the other answers as a replay.
      const existing = key
        ? await findImport(ctx.deps.sequelize, { accountId: account.id, idempotencyKey: key })
        : null;
      if (!existing) throw error;
      return await replay(ctx, existing, key!, requestHash);
    }
    if (!row.refused) await startImport(ctx, row);
    ctx.status = 202;
    ctx.body = await presentImport(ctx.deps.sequelize, row);
  } finally {
    await removeSpool(file?.path);
  }
}

async function replay(ctx: APIContext, existing: ImportRow, key: string, requestHash: string): Promise<void> {
  if (existing.request_hash !== requestHash) {
    throw problem('idempotency-key-reused', {
      detail: `Idempotency-Key ${key} was first used with another file or kind (import ${existing.id}); send a new key for a new import.`,
      errors: { 'Idempotency-Key': ['The key was first used with another file or kind.'] },
    });
  }
  if (!existing.refused) await startImport(ctx, existing);
  ctx.status = 202;
  ctx.body = await presentImport(ctx.deps.sequelize, existing);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `GET /Integration/Templates/{kind}`: the spreadsheet to fill. `POST /Integration/Imports`: a filled one,
 * through the pipeline of POST /Integration/Events; `GET /Integration/Imports[/{id}]`: how it went.
 */
export function importsRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();
  router.get('/Integration/Templates/:kind', validate({ query: templateQuery }), async (ctx) => {
    const { kind } = ctx.params;
    if (!isKind(kind))
      throw problem('unknown-import-template', {
        detail: `No template ${kind}; the kinds are ${IMPORT_KINDS.join(', ')}.`,
      });
    const format = ctx.state.input.query.format ?? 'csv';
    const spec = kindSpec(kind);
    ctx.set('Content-Disposition', `attachment; filename="${kind}-template.${format}"`);
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (format === 'xlsx') {
      ctx.type = XLSX_TYPE;
      ctx.body = await templateXlsx(spec);
    } else {
      ctx.type = `${CSV_TYPE}; charset=utf-8`;
      ctx.body = templateCsv(spec);
    }
  });
  router.post('/Integration/Imports', (ctx) => upload(ctx));
  router.get('/Integration/Imports', validatePage(), async (ctx) => {
    const page = pageOf(ctx.state.input.query);
    const { total, rows } = await listImports(ctx.deps.sequelize, ctx.state.account.id, page.pageSize, page.offset);
    const results = [];
    for (const row of rows) results.push(await presentImportSummary(ctx.deps.sequelize, row));
    ctx.body = pageBody(page, total, results);
  });
  router.get('/Integration/Imports/:id', async (ctx) => {
    const row = UUID.test(ctx.params.id)
      ? await findImport(ctx.deps.sequelize, { accountId: ctx.state.account.id, id: ctx.params.id })
      : null;
    if (!row) throw problem('unknown-import', { detail: `No import ${ctx.params.id} in this account.` });
    ctx.body = await presentImport(ctx.deps.sequelize, row);
  });
  return router;
}

/** `GET /imports`: the page that uploads a spreadsheet and shows how it went. */
export const importsPageRouter = () => browserPageRouter('/imports', IMPORTS_PAGE);
