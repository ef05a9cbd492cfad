/** Schemas of /Integration/Recalls: the same objects validate requests and become the OpenAPI document. */
import type { FromSchema } from 'json-schema-to-ts';
import { allRequired, requiredObject } from '../openapi/schema';
import { CHECK_LEVELS, DEFAULT_REMINDERS, RECALL_DEPTHS } from '../../domain/recall-strategy';
import { withLimits } from '../../domain/schemas/limits';
import { pageBodySchema } from '../paging';

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
    Depth: {
      enum: [...RECALL_DEPTHS],
      description:
        'How far down the chain the recall goes (21 CFR 7.42(b)(1)), told to every consignee so it knows whether to pass it on. Consumer when absent.',
      example: 'Retail',
    },
    EffectivenessCheck: {
      type: 'object',
      required: ['Level'],
      additionalProperties: false,
      description:
        'The share of consignees whose answer must show they received the notice and acted (21 CFR 7.42(b)(3)): A 100%, B Percent (more than 10, less than 100), C 10%, D 2%, E none. Level A when absent.',
      properties: {
        Level: { enum: [...CHECK_LEVELS], example: 'B' },
        Percent: {
          type: 'number',
          description: 'Level B only: the percentage, more than 10 and less than 100 (10 is level C, 100 level A).',
          example: 50,
        },
      },
    },
    Reminders: {
      type: 'object',
      additionalProperties: false,
      description: `How a consignee that has not answered is followed up: reminded every EverySeconds (${DEFAULT_REMINDERS.everySeconds}), overdue (and the issuer told) when a reminder would follow its OverdueAfter-th (${DEFAULT_REMINDERS.overdueAfter}).`,
      properties: {
        EverySeconds: { type: 'integer', minimum: 1, maximum: 31_536_000, example: 86_400 },
        OverdueAfter: { type: 'integer', minimum: 0, maximum: 100, example: 3 },
      },
    },
  },
} as const);

export type CreateRecallInput = FromSchema<typeof createRecallBody>;

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
    Lots: {
      type: 'array',
      maxItems: 1000,
      description:
        'What became of each lot you received (its serial as your notice lists it in `lots` of the issuer’s view, or `shipped`), in its unit. A lot left out counts as nothing accounted for. ' +
        'Together a lot’s OnHand, Returned, Destroyed and SoldOn are at most what `shipped` says reached you of it: more is a 400 naming the lot (`Lots[i]`), and nothing of the answer is stored.',
      items: {
        type: 'object',
        required: ['LotSerial'],
        additionalProperties: false,
        properties: {
          LotSerial: { type: 'string', minLength: 1 },
          OnHand: { type: 'number', minimum: 0, description: 'Still held (quarantined).' },
          Returned: { type: 'number', minimum: 0, description: 'Sent back to the shipper.' },
          Destroyed: {
            type: 'number',
            minimum: 0,
            description: 'Destroyed, in total (a later answer gives the total again).',
          },
          DestroyedAt: {
            type: 'string',
            minLength: 1,
            description:
              'Your location (your id or the service id) where you destroyed it: the service records the destroyed quantity there as ' +
              'a decommission event (ObjectEvent DELETE, destroying, destroyed; its ReferenceDocumentId recall:<id>) through the events ' +
              'pipeline, so your inventory agrees with the answer. Only what Destroyed adds to what is recorded for this recall already ' +
              'is recorded. More than the location holds is a 400 naming Destroyed, and nothing of the answer is stored. Left out, ' +
              'nothing is recorded: you record your destruction yourself.',
          },
          SoldOn: {
            type: 'number',
            minimum: 0,
            description: 'Shipped to your own customers: pass the recall on to reach them.',
          },
        },
      },
      example: [
        { LotSerial: 'LOT-2024-001', OnHand: 2.5, Returned: 10, Destroyed: 4, DestroyedAt: 'DOCK-1', SoldOn: 0 },
      ],
    },
  },
} as const);

export type AcknowledgeInput = FromSchema<typeof acknowledgeBody>;
export type LotAnswerInput = NonNullable<AcknowledgeInput['Lots']>[number];

export const closeRecallBody = withLimits({
  type: 'object',
  additionalProperties: false,
  properties: {
    Reason: {
      type: 'string',
      minLength: 1,
      maxLength: 2000,
      description: 'Why you close it: required when the effectiveness check level is not met.',
      example: 'Remaining consignee went out of business; stock confirmed destroyed by the local authority.',
    },
  },
} as const);

export type CloseRecallInput = FromSchema<typeof closeRecallBody>;

const product = requiredObject({
  id: { type: 'string' },
  name: { type: 'string' },
  gtin: { type: ['string', 'null'] },
  unit: { type: 'string' },
});
const lot = requiredObject({ product, lotSerial: { type: 'string' } });

/** The figures of a lot's answer (domain/recall-strategy.ts LotAnswer), in the lot's unit. */
const figure = { type: 'number' } as const;
const answerFigures = { onHand: figure, returned: figure, destroyed: figure, soldOn: figure };

const lotAnswer = requiredObject({ lotSerial: { type: 'string' }, ...answerFigures });

const acknowledgement = {
  type: ['object', 'null'],
  ...allRequired({
    time: { type: 'string', format: 'date-time' },
    quantityOnHand: { type: 'number' },
    action: { type: 'string' },
    lots: { type: ['array', 'null'], items: lotAnswer, description: 'Per lot received (null: not given).' },
  }),
  description: 'The holder’s answer (null: none yet).',
} as const;

const shippedLot = requiredObject({
  lotSerial: { type: 'string' },
  quantity: { type: 'number' },
  unit: { type: 'string' },
});

const time = { type: 'string', format: 'date-time' } as const;
const nullableTime = { type: ['string', 'null'], format: 'date-time' } as const;

const noticeStateSchema = {
  enum: ['notified', 'acknowledged'],
  description: 'notified: the holder was told and has not answered; acknowledged: it answered (acknowledgement).',
} as const;

const recallProperties = {
  id: { type: 'string', format: 'uuid' },
  issuer: { type: 'string', description: 'The account that issued the recall.' },
  reason: { type: 'string' },
  createdTime: time,
  strategy: requiredObject({
    depth: { enum: [...RECALL_DEPTHS] },
    effectivenessCheck: requiredObject({ level: { enum: [...CHECK_LEVELS] }, percent: { type: 'number' } }),
    reminders: requiredObject({ everySeconds: { type: 'integer' }, overdueAfter: { type: 'integer' } }),
  }),
  closed: {
    type: ['object', 'null'],
    ...allRequired({ time, reason: { type: ['string', 'null'] }, levelMet: { type: 'boolean' } }),
    description: 'When and why the issuer closed it (null: open).',
  },
} as const;

/** A consignee's follow-up, as both sides see it. */
const followUp = {
  tier: {
    type: 'integer',
    description: '1: the issuer shipped to it; n + 1: a consignee of tier n passed the recall on.',
  },
  notifiedTime: time,
  reminders: { type: 'array', items: time, description: 'When it was reminded, not having answered.' },
  overdueTime: { ...nullableTime, description: 'When it became overdue (null: not overdue).' },
  passedOnTime: { ...nullableTime, description: 'When it passed the recall on to its own consignees.' },
} as const;

/** What a holder sees: only what its own traces show. */
export const recallNotice = requiredObject({
  ...recallProperties,
  role: { enum: ['holder'] },
  state: {
    enum: [...noticeStateSchema.enum, 'closed'],
    description: `${noticeStateSchema.description} closed: the issuer closed the recall (whether you answered is acknowledgement).`,
  },
  ...followUp,
  shipped: { type: 'array', items: shippedLot, description: 'What was shipped to you of each lot you received.' },
  recalled: { type: 'array', items: lot, description: 'The recalled lot as your backward trace shows it.' },
  lots: {
    type: 'array',
    items: lot,
    description: 'Your lots that come from it (what you received and made from it).',
  },
  holdings: {
    type: 'array',
    items: requiredObject({
      product,
      lotSerial: { type: 'string' },
      location: requiredObject({ id: { type: 'string' }, name: { type: 'string' }, gln: { type: ['string', 'null'] } }),
      quantityOnHand: { type: 'number' },
      unit: { type: 'string' },
    }),
    description: 'Where you still hold some, by your records.',
  },
  acknowledgement,
});

const lotFigures = requiredObject({
  ...shippedLot.properties,
  quantity: { type: 'number', description: 'Shipped to the consignee.' },
  ...answerFigures,
  accountedFor: { type: 'number', description: 'onHand + returned + destroyed + soldOn.' },
  outstanding: { type: 'number', description: 'Still out: shipped less accounted for, never below 0.' },
});

const quantityTotals = requiredObject({
  unit: { type: 'string' },
  shipped: { type: 'number' },
  ...answerFigures,
  accountedFor: { type: 'number' },
  outstanding: { type: 'number' },
});

const effectiveness = requiredObject({
  consignees: { type: 'integer' },
  reached: {
    type: 'integer',
    description: 'Consignees whose notice is stored: in their list, owed to their webhooks.',
  },
  acknowledged: { type: 'integer', description: 'Consignees that answered (progress acknowledged or acted).' },
  acted: { type: 'integer', description: 'Consignees whose answer accounts for everything shipped to them.' },
  overdue: { type: 'integer' },
  checkPercent: { type: 'number' },
  required: { type: 'integer', description: 'Answers the level takes: checkPercent of the consignees, rounded up.' },
  levelMet: { type: 'boolean', description: 'acknowledged ≥ required.' },
  quantities: {
    type: 'array',
    items: quantityTotals,
    description: 'Per unit, summed over the consignees: a quantity sold on to another consignee counts at both.',
  },
});

/** What the issuer sees: per consignee, the lots it received, its answer and follow-up, and the recall's effectiveness. */
export const issuedRecall = requiredObject({
  ...recallProperties,
  role: { enum: ['issuer'] },
  state: {
    enum: ['open', 'notified', 'acknowledged', 'closed'],
    description:
      'closed: you closed it (when and why: `closed`; where each holder stood: `holders`); otherwise open: the recall reached no ' +
      'other account (only your own stock); notified: some holder has not acknowledged yet; acknowledged: every holder has.',
  },
  productId: { type: 'string' },
  lotSerial: { type: 'string' },
  effectiveness,
  holders: {
    type: 'array',
    items: requiredObject({
      account: { type: 'string' },
      lots: {
        type: 'array',
        items: { type: 'string' },
        description: 'Lot serials it received that lead back to the recall.',
      },
      state: noticeStateSchema,
      acknowledgement,
      via: { type: 'string', description: 'The account whose shipment reached it.' },
      progress: {
        enum: ['notified', 'acknowledged', 'acted'],
        description: 'state, and acted: its answer accounts for everything shipped to it.',
      },
      quantities: { type: 'array', items: lotFigures, description: 'Per lot it received.' },
      ...followUp,
    }),
  },
});

/** A consignee's answer to passing the recall on: the consignees it reached (none already reached are reached again). */
export const passedOn = requiredObject({
  id: { type: 'string', format: 'uuid' },
  passedOnTime: time,
  reached: {
    type: 'array',
    items: requiredObject({
      account: { type: 'string' },
      lots: { type: 'array', items: { type: 'string' } },
      shipped: { type: 'array', items: shippedLot },
    }),
  },
});

export const recallAnswer = { oneOf: [issuedRecall, recallNotice] } as const;
export const noticeList = pageBodySchema(
  recallNotice,
  'One page of the recall notices the account received, newest first.',
);
export const issuedList = pageBodySchema(issuedRecall, 'One page of the recalls the account issued, newest first.');

/** The quantity columns of the effectiveness spreadsheets, per lot (Consignees) or per unit (Totals). */
const QUANTITY_COLUMNS = [
  'Unit',
  'Shipped',
  'On Hand',
  'Returned',
  'Destroyed',
  'Sold On',
  'Accounted For',
  'Outstanding',
] as const;

/** The columns of GET /Integration/Recalls/{id}/effectiveness.csv: one row per consignee and lot it received. */
export const EFFECTIVENESS_COLUMNS = [
  'Consignee',
  'Tier',
  'Via',
  'Progress',
  'Notified',
  'Acknowledged',
  'Reminders',
  'Overdue',
  'Passed On',
  'Lot',
  ...QUANTITY_COLUMNS,
] as const;

/**
 * The columns of the sheet Totals of GET /Integration/Recalls/{id}/effectiveness.xlsx: the recall's
 * effectiveness, a row per unit its lots are counted in (a row with the counts alone when it reached no one).
 */
export const EFFECTIVENESS_TOTALS_COLUMNS = [
  'Product',
  'Lot',
  'Check Level',
  'Check Percent',
  'Consignees',
  'Reached',
  'Acknowledged',
  'Acted',
  'Overdue',
  'Required',
  'Level Met',
  ...QUANTITY_COLUMNS,
] as const;
