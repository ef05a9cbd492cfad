/** Schemas of /Integration/Recalls: the same objects validate requests and become the OpenAPI document. */
import { withLimits } from '../../limits';
import { pageBodySchema } from '../../paging';

export const createRecallBody = withLimits({
  type: 'object',
  required: ['ProductId', 'LotSerial', 'Reason'],
  additionalProperties: false,
  properties: {
    ProductId: {
      type: 'string',
      minLength: 1,
      description: 'Your product (your id or the service id).',
      example: 'COD-WHOLE',
    },
    LotSerial: {
      type: 'string',
      minLength: 1,
      description: 'The lot recalled: every lot made from it is recalled too.',
      example: 'LOT-2024-001',
    },
    Reason: {
      type: 'string',
      minLength: 1,
      maxLength: 2000,
      description: 'Why: told to every holder.',
      example: 'Listeria found in retained sample.',
    },
  },
});

export interface CreateRecallInput {
  ProductId: string;
  LotSerial: string;
  Reason: string;
}

export const acknowledgeBody = withLimits({
  type: 'object',
  required: ['QuantityOnHand', 'Action'],
  additionalProperties: false,
  properties: {
    QuantityOnHand: {
      type: 'number',
      minimum: 0,
      description: 'How much of the recalled product you still hold.',
      example: 12.5,
    },
    Action: {
      type: 'string',
      minLength: 1,
      maxLength: 2000,
      description: 'What you did or will do with it.',
      example: 'Quarantined; returning to supplier.',
    },
  },
});

export interface AcknowledgeInput {
  QuantityOnHand: number;
  Action: string;
}

const product = {
  type: 'object',
  required: ['id', 'name', 'gtin', 'unit'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    gtin: { type: ['string', 'null'] },
    unit: { type: 'string' },
  },
} as const;
const lot = {
  type: 'object',
  required: ['product', 'lotSerial'],
  properties: { product, lotSerial: { type: 'string' } },
} as const;

const acknowledgement = {
  type: ['object', 'null'],
  required: ['time', 'quantityOnHand', 'action'],
  properties: {
    time: { type: 'string', format: 'date-time' },
    quantityOnHand: { type: 'number' },
    action: { type: 'string' },
  },
  description: 'The holder’s answer (null: none yet).',
} as const;

const noticeStateSchema = {
  enum: ['notified', 'acknowledged'],
  description: 'notified: the holder was told and has not answered; acknowledged: it answered (acknowledgement).',
} as const;

const recallProperties = {
  id: { type: 'string', format: 'uuid' },
  issuer: { type: 'string', description: 'The account that issued the recall.' },
  reason: { type: 'string' },
  createdTime: { type: 'string', format: 'date-time' },
} as const;

/** What a holder sees: only what its own traces show. */
export const recallNotice = {
  type: 'object',
  required: [...Object.keys(recallProperties), 'role', 'state', 'recalled', 'lots', 'holdings', 'acknowledgement'],
  properties: {
    ...recallProperties,
    role: { enum: ['holder'] },
    state: noticeStateSchema,
    recalled: { type: 'array', items: lot, description: 'The recalled lot as your backward trace shows it.' },
    lots: {
      type: 'array',
      items: lot,
      description: 'Your lots that come from it (what you received and made from it).',
    },
    holdings: {
      type: 'array',
      items: {
        type: 'object',
        required: ['product', 'lotSerial', 'location', 'quantityOnHand', 'unit'],
        properties: {
          product,
          lotSerial: { type: 'string' },
          location: {
            type: 'object',
            required: ['id', 'name', 'gln'],
            properties: { id: { type: 'string' }, name: { type: 'string' }, gln: { type: ['string', 'null'] } },
          },
          quantityOnHand: { type: 'number' },
          unit: { type: 'string' },
        },
      },
      description: 'Where you still hold some, by your records.',
    },
    acknowledgement,
  },
} as const;

/** What the issuer sees: per holder, the lots it received and its acknowledgement. */
export const issuedRecall = {
  type: 'object',
  required: [...Object.keys(recallProperties), 'role', 'state', 'productId', 'lotSerial', 'holders'],
  properties: {
    ...recallProperties,
    role: { enum: ['issuer'] },
    state: {
      enum: ['open', 'notified', 'acknowledged'],
      description:
        'open: the recall reached no other account (only your own stock); notified: some holder has not acknowledged yet; ' +
        'acknowledged: every holder has.',
    },
    productId: { type: 'string' },
    lotSerial: { type: 'string' },
    holders: {
      type: 'array',
      items: {
        type: 'object',
        required: ['account', 'lots', 'state', 'acknowledgement'],
        properties: {
          account: { type: 'string' },
          lots: {
            type: 'array',
            items: { type: 'string' },
            description: 'Lot serials it received that lead back to the recall.',
          },
          state: noticeStateSchema,
          acknowledgement,
        },
      },
    },
  },
} as const;

export const recallAnswer = { oneOf: [issuedRecall, recallNotice] } as const;
export const noticeList = pageBodySchema(
  recallNotice,
  'One page of the recall notices the account received, newest first.',
);
export const issuedList = pageBodySchema(issuedRecall, 'One page of the recalls the account issued, newest first.');
