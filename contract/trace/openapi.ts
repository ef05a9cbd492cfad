import { problemResponse } from '../openapi/components';
import { taggedOperation, pageOperations } from '../openapi/operation';
import {
  fsmaQuery,
  nodeEventsQuery,
  nodeEventsResponse,
  recallQuery,
  recallResponse,
  traceQuery,
  traceResponse,
} from './schema';
import { CSV_TYPE, XLSX_TYPE } from '../../platform/spreadsheet-writing';
import { FSMA_COLUMNS } from '../../domain/fsma204';

const operation = taggedOperation('Trace');

const notFound = problemResponse('ProductId names no product of yours.', 'unknown-product', {
  detail: 'Product not found: SALMON',
  errors: { ProductId: ['No product SALMON in this account.'] },
});
const invalid = problemResponse('A query parameter is missing or invalid; `errors` names it.', 'invalid-request', {
  errors: { ProductId: ['ProductId is required.'] },
});

const node = (id: string, account: string, location: string, lot: string, visibility: string) => ({
  id,
  product: { id: 'SALMON', name: 'Atlantic salmon', gtin: null, unit: 'KGM' },
  lotSerial: lot,
  account,
  location: { id: location, name: location, gln: null, tradePartner: account, external: false },
  visibility,
  quantityIn: 100,
  quantityOut: 100,
  quantityOnHand: visibility === 'own' ? 0 : null,
  firstEvent: '2024-03-01T08:00:00.000Z',
  lastEvent: '2024-03-02T08:00:00.000Z',
  eventCount: 2,
});

export const traceOperations = [
  operation({
    method: 'get',
    path: '/Integration/Trace',
    summary: 'Trace a lot: where it came from and where it went',
    description:
      'The graph of a lot across shipments, receipts, transforms (inputs to outputs and back), aggregations and accounts. A node is a ' +
      'product’s lot at one location; an edge is the event that moved it. Another account’s records appear only when it shipped toward ' +
      'you to a GLN verified as yours (directly or through the accounts between), up to the moment it shipped, and only for Open products; ' +
      'a Restricted product shows the shipment alone. Forward, the trace stays in your records: a shipment ends at your record of the ' +
      'receiving location.',
    query: traceQuery,
    responses: {
      200: {
        description: 'The graph.',
        schema: traceResponse,
        example: {
          root: { productId: 'SALMON', lotSerial: 'LOT-1', nodes: ['b'] },
          nodes: [node('a', 'farm-co', 'Farm', 'LOT-1', 'shared'), node('b', 'acme', 'Plant', 'LOT-1', 'own')],
          edges: [
            {
              from: 'a',
              to: 'b',
              eventId: '7f0e5b2c-8a93-4c1d-9e7a-2b4f4a8e9d61',
              type: 'Ship',
              eventTime: '2024-03-02T08:00:00.000Z',
              quantity: 100,
            },
          ],
        },
      },
      400: invalid,
      404: notFound,
    },
  }),
  operation({
    method: 'get',
    path: '/Integration/Trace/events',
    summary: 'The events of one node of a trace',
    description:
      'Every event of the node’s lot at its location that you may see (the same visibility as the trace: another account’s records up to ' +
      'the moment the lot moved toward you; a Restricted product’s shipment alone). NodeId is a `nodes[].id` of the trace with the same parameters.',
    query: nodeEventsQuery,
    responses: {
      200: { description: 'The node and its events.', schema: nodeEventsResponse },
      400: invalid,
      404: problemResponse('ProductId names no product of yours, or NodeId no node of its trace.'),
    },
  }),
  operation({
    method: 'get',
    path: '/Integration/Trace/recall',
    summary: 'Recall a lot: every lot made from it, who holds it now, who it was shipped to',
    description:
      'Forward from the lot through your records: every lot derived from it, every location of yours still holding any of it now ' +
      '(from the inventory timeline), and every shipment of them to a trade partner, with quantities and units.',
    query: recallQuery,
    responses: {
      200: { description: 'What a recall notice must reach.', schema: recallResponse },
      400: invalid,
      404: notFound,
    },
  }),
  operation({
    method: 'get',
    path: '/Integration/Trace/fsma204',
    summary: 'The FDA’s FSMA 204 sortable spreadsheet of a lot’s trace',
    description:
      'One row per Critical Tracking Event and lot in the traced chain you may see (the same parameters and visibility as ' +
      'GET /Integration/Trace), with its Key Data Elements: initial packing for a commission on land, shipping, receiving, ' +
      'transformation, and for a lot whose first event is at a fishing vessel, first land-based receiving (21 CFR 1.1335) for its ' +
      'first receipt on land, with the harvest dates and catch areas of its catches, the vessels and the landing date; events at ' +
      `a vessel are no CTE of their own. Oldest first. format=csv (default): one row per event, columns ${FSMA_COLUMNS.join(', ')}; ` +
      'format=xlsx: one sheet per CTE with that CTE’s columns, filters on every column. Documents another account marked Private are left out.',
    query: fsmaQuery,
    responses: {
      200: {
        description: 'The spreadsheet, as an attachment.',
        contentType: [CSV_TYPE, XLSX_TYPE],
        schema: {
          type: 'string',
          format: 'binary',
          description: 'CSV text (UTF-8, a header row) or an xlsx workbook.',
        },
      },
      400: invalid,
      404: notFound,
    },
  }),
  ...pageOperations(
    'trace',
    'Sign in with an API key, trace a lot: its graph laid out by ELK with lots as nodes, events as edges with quantities, one box per account, ' +
      'opening on the traced lot (fit, zoom and pan); click a node for its events; download the FSMA 204 spreadsheet. ' +
      'The page holds no data itself; it calls /Integration/Trace.',
    'web/trace.ts with its imports (elkjs included), bundled by the service: the page needs nothing from elsewhere',
  ),
];
