import Router from '@koa/router';
import { findImport, listImports, type ImportRow } from '../../../db/repositories/imports';
import { startUploadedImport } from '../../../batches/import-workflow';
import { importFile, type ImportServices } from '../../../usecases/import-file';
import { importReports } from '../../../usecases/import-report';
import { IMPORT_KINDS, type ImportKind } from '../../../domain/spreadsheet-rows';
import type { APIContext, AppCustom, AppState } from '../../context';
import { problem, validationProblem, type ApiError } from '../../errors';
import { validate } from '../../middleware/validate';
import { declaredOver } from '../../limits';
import { pageBody, pageOf, validatePage } from '../../paging';
import { receiveMultipart, removeSpool } from '../../spooled-upload';
import { sendSpreadsheet } from '../../spreadsheet';
import { importRules, kindSpec } from './kinds';
import { importStatusUrl, presentImport, presentImportSummary } from './presenter';
import { IMPORT_LIMITS, MAX_IMPORT_BODY_BYTES } from './receive';
import { templateQuery, TOO_LARGE } from '../../../contract/imports/schema';
import { templateCsv, templateXlsx } from './templates';
import { browserPageRouter } from '../../browser-page';
import { IMPORTS_PAGE } from './page';
import { isUuid } from '../../../db/sql';

const isKind = (value: string): value is ImportKind => (IMPORT_KINDS as readonly string[]).includes(value);

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

const tooLarge = (): ApiError => problem('import-too-large', TOO_LARGE);

const formatOf = (fileName: string): 'csv' | 'xlsx' | null => {
  const extension = /\.([A-Za-z]+)$/.exec(fileName)?.[1]?.toLowerCase();
  return extension === 'csv' || extension === 'xlsx' ? extension : null;
};

/** The import use case on the service: its workflow started from the request (batches/import-workflow.ts). */
const importServices = (ctx: APIContext): ImportServices => ({
  sequelize: ctx.deps.sequelize,
  rules: importRules(ctx.deps),
  start: (row: ImportRow) =>
    startUploadedImport(ctx.deps, row, { accountName: ctx.state.account.name, requestId: ctx.state.requestId ?? null }),
});

const presentedImport = async (ctx: APIContext, row: ImportRow) =>
  presentImport((await importReports(ctx.deps.sequelize, [row]))[0]);

async function upload(ctx: APIContext): Promise<void> {
  const key = ctx.get('Idempotency-Key').trim() || undefined;
  if (key && !IDEMPOTENCY_KEY.test(key)) throw problem('invalid-idempotency-key');
  if (declaredOver(ctx.req.headers, MAX_IMPORT_BODY_BYTES)) throw tooLarge();
  const received = await receiveMultipart(ctx, IMPORT_LIMITS);
  if (received.outcome === 'tooLarge') throw tooLarge();
  if (received.outcome === 'tooManyFiles') throw problem('unreadable-body', { detail: 'Send one file per import.' });
  const { fields, file } = received;
  try {
    const kind = fields.kind ?? (typeof ctx.query.kind === 'string' ? ctx.query.kind : undefined);
    if (!kind || !isKind(kind)) throw validationProblem({ kind: [`kind must be one of: ${IMPORT_KINDS.join(', ')}.`] });
    if (!file?.path) throw validationProblem({ file: ['Send the spreadsheet as the multipart part named file.'] });
    const format = formatOf(file.fileName);
    if (!format) throw validationProblem({ file: [`${file.fileName || 'The file'} is neither .csv nor .xlsx.`] });
    const outcome = await importFile(importServices(ctx), {
      account: ctx.state.account,
      kind,
      format,
      file: { ...file, path: file.path, sha256: file.sha256.toString('hex') },
      idempotencyKey: key ?? null,
      requestId: ctx.state.requestId ?? null,
    });
    switch (outcome.kind) {
      case 'unreadable':
        throw problem('unreadable-spreadsheet', { detail: outcome.message, errors: { file: [outcome.message] } });
      case 'tooManyRows':
        throw tooLarge();
      case 'badHeader':
        throw problem('import-header-mismatch', {
          issues: outcome.errors.map((e) => ({ pointer: e.column ?? '$', message: e.message })),
          detail: `The header row does not fit the ${kind} template: ${outcome.errors.map((e) => e.message).join(' ')}`,
        });
      case 'keyReused':
        throw problem('idempotency-key-reused', {
          detail: `Idempotency-Key ${key} was first used with another file or kind (import ${outcome.existing.id}); send a new key for a new import.`,
          errors: { 'Idempotency-Key': ['The key was first used with another file or kind.'] },
        });
      case 'notStarted': {
        const { row, error } = outcome;
        const { config, logger } = ctx.deps;
        logger.error({ err: error, importId: row.id }, 'could not start the import workflow');
        throw problem('import-not-started', {
          detail: `The import was stored but could not be started now; it is started automatically within ${config.reconcileAfterSeconds + config.reconcileEverySeconds} seconds. Follow statusUrl for its result.`,
          importId: row.id,
          statusUrl: importStatusUrl(row.id),
        });
      }
    }
    ctx.status = 202;
    ctx.body = await presentedImport(ctx, outcome.row);
  } finally {
    await removeSpool(file?.path);
  }
}

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
    const spec = kindSpec(kind);
    await sendSpreadsheet(ctx, `${kind}-template`, ctx.state.input.query.format ?? 'csv', {
      csv: () => templateCsv(spec),
      xlsx: () => templateXlsx(spec),
    });
  });
  router.post('/Integration/Imports', (ctx) => upload(ctx));
  router.get('/Integration/Imports', validatePage(), async (ctx) => {
    const page = pageOf(ctx.state.input.query);
    const { total, rows } = await listImports(ctx.deps.sequelize, ctx.state.account.id, page);
    const reports = await importReports(ctx.deps.sequelize, rows, false);
    ctx.body = pageBody(page, total, reports.map(presentImportSummary));
  });
  router.get('/Integration/Imports/:id', async (ctx) => {
    const row = isUuid(ctx.params.id)
      ? await findImport(ctx.deps.sequelize, { accountId: ctx.state.account.id, id: ctx.params.id })
      : null;
    if (!row) throw problem('unknown-import', { detail: `No import ${ctx.params.id} in this account.` });
    ctx.body = await presentedImport(ctx, row);
  });
  return router;
}

/** `GET /imports`: the page that uploads a spreadsheet and shows how it went. */
export const importsPageRouter = () => browserPageRouter('/imports', IMPORTS_PAGE);
