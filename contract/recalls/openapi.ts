import { problemResponse } from '../openapi/components';
import { taggedOperation, pageOperations } from '../openapi/operation';
import { pageQueryErrorResponse, pageQuerySchema } from '../paging';
import { CSV_TYPE, XLSX_TYPE } from '../../platform/spreadsheet-writing';
import {
  acknowledgeBody,
  closeRecallBody,
  createRecallBody,
  EFFECTIVENESS_COLUMNS,
  EFFECTIVENESS_TOTALS_COLUMNS,
  issuedList,
  issuedRecall,
  noticeList,
  passedOn,
  recallAnswer,
  recallNotice,
} from './schema';

const operation = taggedOperation('Recalls');

const RECALL_ID = '0b7c6d5e-4f3a-4b2c-9d1e-0f9a8b7c6d5e';
const invalid = problemResponse('A field is missing, unknown or invalid; `errors` names it.', 'invalid-request', {
  errors: { ProductId: ['ProductId is required.'] },
});
const closed = problemResponse('The recall is closed: nothing more is passed on or answered.', 'recall-closed', {
  detail: `Recall ${RECALL_ID} is closed.`,
});
/** The 404 of a route that finds a recall `how` (issued by, sent to) the key's account. */
const unknownRecall = (how: string) =>
  problemResponse(`No recall with this id ${how} the key’s account.`, 'unknown-recall', {
    detail: `No recall ${RECALL_ID} ${how} this account.`,
  });
const notSentHere = unknownRecall('sent to');
const notIssuedHere = unknownRecall('issued by');

export const recallsOperations = [
  operation({
    method: 'post',
    path: '/Integration/Recalls',
    summary: 'Issue a recall',
    description:
      'Follows the lot and every lot made from it as /Integration/Trace/recall does, to the accounts your shipments reached (GLNs ' +
      'verified as other accounts’): your direct consignees. Each gets a notice (GET /Integration/Recalls, and recall.received on its ' +
      'webhooks) telling it only what its own trace shows, and passes the recall on to its own consignees (…/pass-on). The strategy ' +
      '(Depth, EffectivenessCheck, Reminders) is told to every consignee; a consignee that has not answered is reminded on its ' +
      'schedule (recall.reminder) and then marked overdue (recall.overdue to you) by the recall’s workflow until you close it.',
    requestBody: {
      schema: createRecallBody,
      example: {
        ProductId: 'COD-WHOLE',
        LotSerial: 'LOT-2024-001',
        Reason: 'Listeria found in retained sample.',
        Depth: 'Retail',
        EffectivenessCheck: { Level: 'B', Percent: 50 },
        Reminders: { EverySeconds: 86400, OverdueAfter: 3 },
      },
    },
    responses: {
      201: { description: 'The recall, with every consignee it reached and its effectiveness.', schema: issuedRecall },
      400: invalid,
      404: problemResponse(
        'ProductId names no product of the account (`unknown-product`), or LotSerial a lot none of its events names (`unknown-lot-or-serial`); `errors` names it.',
        'unknown-product',
        {
          detail: 'Product not found: COD-WHOLE',
          errors: { ProductId: ['No product COD-WHOLE in this account.'] },
        },
      ),
    },
  }),
  operation({
    method: 'get',
    path: '/Integration/Recalls',
    summary: 'Recall notices the account received',
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
      'Each recall as GET /Integration/Recalls/{id} shows it to its issuer: its state (open, notified, acknowledged, or closed, ' +
      'with when and why), its effectiveness, and every consignee with its lots, state, answer and follow-up.',
    query: pageQuerySchema,
    responses: {
      200: { description: 'One page of recalls, newest first.', schema: issuedList },
      400: pageQueryErrorResponse,
    },
  }),
  operation({
    method: 'get',
    path: '/Integration/Recalls/{id}',
    summary: 'One recall: the issuer sees its effectiveness; a holder its notice',
    responses: {
      200: {
        description:
          'role issuer: the effectiveness (consignees reached, acknowledged, acted, overdue; quantities shipped, accounted for and ' +
          'still out; whether the check level is met) and every consignee with its lots, answer, follow-up and figures per lot; role ' +
          'holder: the notice, with what was shipped to it and its reminders.',
        schema: recallAnswer,
      },
      404: unknownRecall('issued by or sent to'),
    },
  }),
  operation({
    method: 'get',
    path: '/Integration/Recalls/{id}/effectiveness.csv',
    summary: 'A recall’s effectiveness as a spreadsheet',
    description: `The issuer’s view as CSV (RFC 4180, UTF-8, a header row): one row per consignee and lot it received, columns ${EFFECTIVENESS_COLUMNS.join(', ')}.`,
    responses: {
      200: {
        description: 'The CSV, as an attachment.',
        contentType: CSV_TYPE,
        schema: { type: 'string', description: 'CSV text.' },
      },
      404: notIssuedHere,
    },
  }),
  operation({
    method: 'get',
    path: '/Integration/Recalls/{id}/effectiveness.xlsx',
    summary: 'A recall’s effectiveness as an xlsx workbook',
    description:
      `The issuer’s view as an xlsx workbook, quantities as numbers: the sheet Consignees has the CSV’s rows and columns; the sheet ` +
      `Totals the recall’s effectiveness, a row per unit, columns ${EFFECTIVENESS_TOTALS_COLUMNS.join(', ')}.`,
    responses: {
      200: {
        description: 'The workbook, as an attachment.',
        contentType: XLSX_TYPE,
        schema: { type: 'string', format: 'binary', description: 'An xlsx workbook.' },
      },
      404: notIssuedHere,
    },
  }),
  operation({
    method: 'post',
    path: '/Integration/Recalls/{id}/acknowledge',
    summary: 'Acknowledge a recall notice',
    description:
      'The holder says how much it still holds, what it does about it, and per lot it received what is on hand, returned, destroyed ' +
      'and sold on; the issuer sees it, and receives recall.acknowledged. A later answer replaces it. Reminders stop. A lot with ' +
      'DestroyedAt has its destroyed quantity recorded there as a decommission event through the events pipeline first, so your ' +
      'inventory agrees: refused (more than the location holds), nothing of the answer is stored.',
    requestBody: {
      schema: acknowledgeBody,
      example: {
        QuantityOnHand: 12.5,
        Action: 'Quarantined; returning to supplier.',
        Lots: [{ LotSerial: 'LOT-2024-001', OnHand: 12.5, Returned: 40, Destroyed: 0, SoldOn: 7.5 }],
      },
    },
    responses: {
      200: { description: 'The notice, with the acknowledgement.', schema: recallNotice },
      400: invalid,
      404: notSentHere,
      409: closed,
    },
  }),
  operation({
    method: 'post',
    path: '/Integration/Recalls/{id}/pass-on',
    summary: 'Pass a recall on to your own consignees',
    description:
      'Your shipments of the lots you received (or of lots you made from them) to GLNs verified as other accounts’ reach those ' +
      'accounts: each becomes a consignee of the same recall (one tier further), with a notice of its own and recall.received. ' +
      'Accounts the recall already reached are not reached again; passing on again reaches only shipments made since.',
    responses: {
      200: { description: 'The consignees reached now.', schema: passedOn },
      404: notSentHere,
      409: closed,
    },
  }),
  operation({
    method: 'post',
    path: '/Integration/Recalls/{id}/close',
    summary: 'Close a recall',
    description:
      'The issuer closes the recall when its effectiveness check level is met, or says in Reason why it closes it anyway. Every ' +
      'consignee receives recall.closed; reminders stop.',
    requestBody: { schema: closeRecallBody, example: {} },
    responses: {
      200: { description: 'The closed recall, as its issuer sees it.', schema: issuedRecall },
      400: problemResponse(
        'The level is not met and no Reason is given, or a field is invalid; `errors` names it.',
        'invalid-request',
        { errors: { Reason: ['The effectiveness check is not met: … Say in Reason why you close the recall.'] } },
      ),
      404: notIssuedHere,
      409: closed,
    },
  }),
  ...pageOperations(
    'recalls',
    'Sign in with an API key: the recalls the account issued, each with its state and every holder’s, and the notices it received, ' +
      'each with its lots, holdings and state, acknowledged from the page. The page holds no data itself; it calls /Integration/Recalls.',
  ),
];
