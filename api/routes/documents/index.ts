import { Readable } from 'node:stream';
import Router from '@koa/router';
import { documentContent, findDocument, listDocuments } from '../../../db/repositories/documents';
import { contentDisposition, DocumentErrors, isAllowedExtension, MAX_FILE_BYTES } from '../../../domain/documents';
import { checkDocumentMetadata, uploadDocument } from '../../../usecases/upload-document';
import { type APIContext, type AppCustom, type AppState } from '../../context';
import { problem, rawError } from '../../errors';
import { declaredOver } from '../../limits';
import { presentDocument, presentFailed, presentStoredDocument } from './presenter';
import { pageBody, pageOf, validatePage } from '../../paging';
import { MULTIPART_OVERHEAD_BYTES, receiveMultipart, removeSpool } from '../../spooled-upload';
import { documentHeaders, TOO_LARGE_PAGE } from '../../../contract/documents/schema';

export const MAX_BODY_BYTES = MAX_FILE_BYTES + MULTIPART_OVERHEAD_BYTES;
const DOCUMENT_LIMITS = {
  fileBytes: MAX_FILE_BYTES,
  parts: { fields: 20, fieldSize: 8 * 1024, parts: 25, headerPairs: 100 },
  spool: 'document',
};

function answerTooLarge(ctx: APIContext): void {
  ctx.status = 413;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = TOO_LARGE_PAGE;
}

/** Documents: upload (SPEC.md, POST /Integration/Documents), and reading back what the account uploaded. */
export function documentsRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();

  router.post('/Integration/Documents', async (ctx) => {
    if (declaredOver(ctx.req.headers, MAX_BODY_BYTES)) return answerTooLarge(ctx);

    const { account } = ctx.state;
    const headers = documentHeaders(ctx.req.headers);
    // Headers first, before a byte of the body: a request that will fail has its file dropped unread.
    const metadata = await checkDocumentMetadata(account.id, headers);
    const upload = await receiveMultipart(ctx, DOCUMENT_LIMITS, (name) => metadata.ok && isAllowedExtension(name));
    // Body-level failures come before every document rule: they are what a proxy in front would answer.
    if (upload.outcome === 'tooLarge') return answerTooLarge(ctx);
    if (upload.outcome === 'tooManyFiles') throw rawError(422, DocumentErrors.oneFile);

    try {
      const outcome = await uploadDocument(ctx.deps.sequelize, { accountId: account.id, metadata, file: upload.file });
      if (outcome.kind === 'failed')
        throw rawError(422, { documents: [presentFailed(headers, upload.file?.fileName ?? null, outcome.error)] });
      ctx.body = { documents: [presentDocument(outcome.document)] };
    } finally {
      await removeSpool(upload.file?.path);
    }
  });

  router.get('/Integration/Documents', validatePage(), async (ctx) => {
    const page = pageOf(ctx.state.input.query);
    const { rows, count } = await listDocuments(ctx.state.account.id, page.offset, page.pageSize);
    ctx.body = pageBody(page, count, rows.map(presentStoredDocument));
  });

  router.get('/Integration/Documents/:documentId', async (ctx) => {
    ctx.body = presentStoredDocument(await ownDocument(ctx));
  });

  router.get('/Integration/Documents/:documentId/content', async (ctx) => {
    const document = await ownDocument(ctx);
    ctx.type = document.fileType;
    ctx.length = Number(document.sizeBytes);
    ctx.set('Content-Disposition', contentDisposition(document.fileName));
    // Stored bytes are served as stored: a browser must not guess another type and render them.
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('ETag', `"${document.sha256.toString('hex')}"`);
    ctx.body = Readable.from(documentContent(ctx.deps.sequelize, document));
  });

  return router;
}

/** Another account's document is as absent as one that never existed. */
async function ownDocument(ctx: APIContext) {
  const documentId = String(ctx.params.documentId);
  const document = await findDocument(ctx.state.account.id, documentId);
  if (!document) throw problem('unknown-document', { detail: `Document '${documentId}' was not found.` });
  return document;
}
