import Router from '@koa/router';
import { inputOf, type AppCustom, type AppState } from '../../context';
import { notFound } from '../../errors';
import { validate } from '../../middleware/validate';
import { CSV_TYPE, XLSX_TYPE } from '../trace/spreadsheet';
import { IMPORT_KINDS, kindSpec, type ImportKind } from './kinds';
import { templateQuery } from './schema';
import { templateCsv, templateXlsx } from './templates';

const isKind = (value: string): value is ImportKind => (IMPORT_KINDS as readonly string[]).includes(value);

/** `GET /Integration/Templates/{kind}`: the spreadsheet to fill for an import of that kind. */
export function importsRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();
  router.get('/Integration/Templates/:kind', validate(templateQuery, 'query'), async (ctx) => {
    const { kind } = ctx.params;
    if (!isKind(kind)) throw notFound(`No template ${kind}; the kinds are ${IMPORT_KINDS.join(', ')}.`);
    const format = inputOf<{ format?: 'csv' | 'xlsx' }>(ctx).format ?? 'csv';
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
  return router;
}
