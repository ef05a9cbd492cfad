import { problemResponse } from '../../openapi/components';
import { operation } from '../../openapi/operation';
import { pageQueryErrorResponse, pageQuerySchema } from '../../paging';
import {
  acknowledgeBody,
  createRecallBody,
  issuedList,
  issuedRecall,
  noticeList,
  recallAnswer,
  recallNotice,
} from './schema';

const RECALL_ID = '0b7c6d5e-4f3a-4b2c-9d1e-0f9a8b7c6d5e';
const invalid = problemResponse('A field is missing, unknown or invalid; `errors` names it.', 'invalid-request', {
  errors: { ProductId: ['ProductId is required.'] },
});
const notFound = problemResponse('No recall with this id issued by or sent to the key’s account.', 'unknown-recall', {
  detail: `No recall ${RECALL_ID} issued by or sent to this account.`,
});

export const recallsOperations = [
  operation({
    method: 'post',
    path: '/Integration/Recalls',
    summary: 'Issue a recall',
    description:
      'Finds every lot made from the lot and every account holding one, as /Integration/Trace/recall does (shipments to GLNs verified as ' +
      'other accounts’, onwards through their shipments), and sends each a notice (GET /Integration/Recalls, and recall.received on its ' +
      'webhooks). A notice tells a holder only what its own trace shows.',
    tags: ['Recalls'],
    requestBody: {
      schema: createRecallBody,
      example: { ProductId: 'COD-WHOLE', LotSerial: 'LOT-2024-001', Reason: 'Listeria found in retained sample.' },
    },
    responses: {
      201: { description: 'The recall, with every holder it reached.', schema: issuedRecall },
      400: invalid,
      404: problemResponse('ProductId names no product of the account; `errors` names it.', 'unknown-product', {
        detail: 'Product not found: COD-WHOLE',
        errors: { ProductId: ['No product COD-WHOLE in this account.'] },
      }),
    },
  }),
  operation({
    method: 'get',
    path: '/Integration/Recalls',
    summary: 'Recall notices the account received',
    tags: ['Recalls'],
    query: pageQuerySchema,
    responses: {
      200: { description: 'One page of notices, newest first.', schema: noticeList },
      400: pageQueryErrorResponse,
    },
  }),
  operation({
    method: 'get',
    path: '/Integration/Recalls/issued',
    summary: 'Recalls the account issued',
    description:
      'Each recall as GET /Integration/Recalls/{id} shows it to its issuer: its state (open, notified, acknowledged) and every holder ' +
      'with its lots, its state and its acknowledgement.',
    tags: ['Recalls'],
    query: pageQuerySchema,
    responses: {
      200: { description: 'One page of recalls, newest first.', schema: issuedList },
      400: pageQueryErrorResponse,
    },
  }),
  operation({
    method: 'get',
    path: '/Integration/Recalls/{id}',
    summary: 'One recall: the issuer sees who acknowledged; a holder its notice',
    tags: ['Recalls'],
    responses: {
      200: {
        description: 'role issuer: every holder with its lots and acknowledgement; role holder: the notice.',
        schema: recallAnswer,
      },
      404: notFound,
    },
  }),
  operation({
    method: 'post',
    path: '/Integration/Recalls/{id}/acknowledge',
    summary: 'Acknowledge a recall notice',
    description:
      'The holder says how much it still holds and what it does about it; the issuer sees it, and receives recall.acknowledged. A later answer replaces it.',
    tags: ['Recalls'],
    requestBody: {
      schema: acknowledgeBody,
      example: { QuantityOnHand: 12.5, Action: 'Quarantined; returning to supplier.' },
    },
    responses: {
      200: { description: 'The notice, with the acknowledgement.', schema: recallNotice },
      400: invalid,
      404: problemResponse('No recall with this id sent to the key’s account.', 'unknown-recall', {
        detail: `No recall ${RECALL_ID} sent to this account.`,
      }),
    },
  }),
  operation({
    method: 'get',
    path: '/recalls',
    summary: 'The recalls page',
    description:
      'Sign in with an API key: the recalls the account issued, each with its state and every holder’s, and the notices it received, ' +
      'each with its lots, holdings and state, acknowledged from the page. The page holds no data itself; it calls /Integration/Recalls.',
    tags: ['Docs'],
    public: true,
    responses: { 200: { description: 'The HTML page.', contentType: 'text/html', schema: { type: 'string' } } },
  }),
  operation({
    method: 'get',
    path: '/recalls/page.js',
    summary: 'The recalls page’s script',
    description: 'web/recalls.ts, bundled by the service. Kept for a year when asked for with the `v` the page names.',
    tags: ['Docs'],
    public: true,
    responses: { 200: { description: 'The script.', contentType: 'text/javascript', schema: { type: 'string' } } },
  }),
];
