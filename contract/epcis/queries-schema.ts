/**
 * Schemas of /epcis/queries (GS1's REST binding: named queries and their subscriptions). The same
 * objects validate requests and become the OpenAPI document.
 */
import type { FromSchema } from 'json-schema-to-ts';
import { closedObject } from '../openapi/schema';
import { EPCIS_QUERY_PARAMETERS, EPCIS_PATTERN_QUERY_PARAMETERS } from '../../domain/epcis/query-parameters';
import { LIMITS } from '../../domain/schemas/limits';

/** The parameters a named query may hold: those of GET /epcis/events but paging. */
export const QUERY_PARAMETERS = Object.keys(EPCIS_QUERY_PARAMETERS);

/**
 * A parameter's value as a string or a list: bounded as GET /epcis/events bounds it (a trace's every EPC
 * in one MATCH_anyEPC), once a list is joined with | (POST /epcis/queries checks that), not tighter.
 */
const parameterValue = {
  anyOf: [
    { type: 'string', minLength: 1, maxLength: LIMITS.queryListLength },
    {
      type: 'array',
      minItems: 1,
      maxItems: LIMITS.arrayItems,
      // Numbers too: GS1's query schema has EQ_value_<unit> as a list of them.
      items: { anyOf: [{ type: 'string', minLength: 1, maxLength: LIMITS.queryListLength }, { type: 'number' }] },
    },
    { type: 'boolean' },
    { type: 'number' },
  ],
} as const;

/** An EXISTS_ parameter: true or false, or, as GS1's query schema writes it, an integer or null (given, it filters). */
const existsValue = {
  anyOf: [{ type: 'boolean' }, { type: 'string', enum: ['true', 'false'] }, { type: 'integer' }, { type: 'null' }],
} as const;

export const QUERY_NAME_PATTERN = '^[A-Za-z0-9_.~-]{1,100}$';

export const createQueryBody = closedObject({
  name: {
    type: 'string',
    pattern: QUERY_NAME_PATTERN,
    description: 'The query name: letters, digits, _ . ~ - (at most 100).',
    example: 'shippedSalmon',
  },
  query: {
    type: 'object',
    additionalProperties: false,
    description:
      'The query: the parameters of GET /epcis/events (eventType, EQ_bizStep, MATCH_epc, GE_eventTime, ...), each a string or a list of strings (a list matches any of its values).',
    properties: Object.fromEntries(
      QUERY_PARAMETERS.map((name) => [name, name.startsWith('EXISTS_') ? existsValue : parameterValue]),
    ),
    patternProperties: Object.fromEntries(
      Object.keys(EPCIS_PATTERN_QUERY_PARAMETERS).map((name) => [
        name,
        name.startsWith('^(EXISTS)_') ? existsValue : parameterValue,
      ]),
    ),
    example: { eventType: ['ObjectEvent'], EQ_bizStep: ['shipping', 'receiving'] },
  },
});

export interface CreateQueryInput {
  name: string;
  query: Record<string, string | (string | number)[] | boolean | number | null>;
}

export const namedQuery = {
  type: 'object',
  required: ['name', 'query'],
  properties: {
    name: { type: 'string' },
    query: { type: 'object' },
    createdAt: { type: 'string', format: 'date-time' },
  },
} as const;

export const namedQueryList = { type: 'array', items: namedQuery } as const;

const scheduleField = (description: string) => ({
  type: 'string' as const,
  minLength: 1,
  maxLength: 200,
  description: `${description} Numbers, [a-b] ranges and a/step steps, separated by commas.`,
});

export const subscriptionSchedule = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    second: scheduleField('Seconds (0-59).'),
    minute: scheduleField('Minutes (0-59).'),
    hour: scheduleField('Hours (0-23, UTC).'),
    dayOfMonth: scheduleField('Days of the month (1-31).'),
    month: scheduleField('Months (1-12).'),
    dayOfWeek: scheduleField('Days of the week (1 Monday - 7 Sunday).'),
  },
} as const;

export const createSubscriptionBody = {
  type: 'object',
  required: ['dest'],
  additionalProperties: false,
  properties: {
    dest: {
      type: 'string',
      minLength: 1,
      maxLength: 2000,
      description:
        'Where reports are POSTed: https to a public address (an operator can allow other hosts with WEBHOOK_ALLOWED_HOSTS).',
    },
    signatureToken: {
      type: 'string',
      minLength: 1,
      maxLength: 500,
      description: 'Secret for GS1-Signature: hex HMAC-SHA256 of the exact report body under it.',
    },
    stream: {
      type: 'boolean',
      enum: [true],
      description: 'Report each newly recorded matching event (a report per batch that stores some).',
    },
    schedule: subscriptionSchedule,
    reportIfEmpty: { type: 'boolean', description: 'Scheduled: report even when nothing new matched.' },
    initialRecordTime: {
      type: 'string',
      format: 'date-time',
      description: 'Scheduled: the first report covers events recorded since this (default: now).',
    },
  },
} as const;

export type CreateSubscriptionInput = FromSchema<typeof createSubscriptionBody>;

export const subscription = {
  type: 'object',
  required: ['subscriptionID', 'queryName', 'dest', 'createdAt', 'initialRecordTime', 'reportIfEmpty', 'epcFormat'],
  properties: {
    subscriptionID: { type: 'string' },
    queryName: { type: 'string' },
    dest: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time' },
    lastNotifiedAt: {
      type: 'string',
      format: 'date-time',
      description: 'The last time dest answered a report with 2xx.',
    },
    initialRecordTime: { type: 'string', format: 'date-time' },
    reportIfEmpty: { type: 'boolean' },
    epcFormat: {
      type: 'string',
      description: 'GS1-EPC-Format of the reports (the header sent with the POST that subscribed).',
    },
    stream: { type: 'boolean' },
    schedule: { type: 'object' },
  },
} as const;

export const subscriptionList = { type: 'array', items: subscription } as const;

/** A schedule field of the socket's query string, described for the WebSocket form. */
const socketScheduleField = (name: string, range: string) => ({
  type: 'string' as const,
  minLength: 1,
  maxLength: 200,
  description: `Scheduled subscription: the ${name} values (${range}) it runs at, a comma list of numbers, [a-b] ranges and a/step steps, in UTC.`,
});

/** The query string of a subscription over WebSocket: stream=true, or the schedule fields. */
export const socketQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    stream: {
      type: 'string',
      enum: ['true'],
      description: 'WebSocket only: report each completed batch’s matching events as it completes.',
    },
    second: socketScheduleField('second', '0-59'),
    minute: socketScheduleField('minute', '0-59'),
    hour: socketScheduleField('hour', '0-23'),
    dayOfMonth: socketScheduleField('day of month', '1-31'),
    month: socketScheduleField('month', '1-12'),
    dayOfWeek: socketScheduleField('day of week', '1 = Monday to 7 = Sunday'),
    initialRecordTime: {
      type: 'string',
      format: 'date-time',
      description:
        'WebSocket only: the first report also carries what the account recorded since then (default: now); reconnect with the last recordTime seen to miss nothing.',
    },
    reportIfEmpty: {
      type: 'string',
      enum: ['true', 'false'],
      description: 'Scheduled WebSocket subscription: send a report even when nothing matched (default false).',
    },
    signatureToken: {
      type: 'string',
      minLength: 1,
      maxLength: 500,
      description:
        'WebSocket: sign each report as a webhook subscription’s is. Each message is then {"headers": {"GS1-Signature": hex HMAC-SHA256 of body under this token}, "body": the EPCISQueryDocument as text}.',
    },
  },
} as const;

export type SocketQuery = FromSchema<typeof socketQuery>;
