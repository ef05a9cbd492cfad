/**
 * GET /epcis/queries/{queryName}/events upgraded to a WebSocket: a query subscription over the socket
 * (GS1's EPCIS 2.0 REST binding), `stream=true` or a schedule, served by api/query-sockets.ts.
 */
import type { ErrorObject } from 'ajv';
import type { Middleware } from 'koa';
import { randomUUID } from 'node:crypto';
import { filterFromJson, type NamedQueryRow, type SubscriptionSchedule } from '../../../db/repositories/epcis-queries';
import { SCHEDULE_FIELDS, scheduleRanges } from '../../../domain/epcis/subscription-schedule';
import type { APIContext, AppCustom, AppState } from '../../context';
import { problem } from '../../errors';
import type { SocketTiming } from '../../query-sockets';
import { acceptUpgrade, wantsWebSocket } from '../../upgrades';
import { pairedWith, textOf, validate, type InputOf, type Source } from '../../middleware/validate';
import { epcFormatOf, headerProblem } from './events';
import { epcisProblem } from './presenter';
import { epcFormatHeader } from './schema';

/** GS1's 400 for a subscription's controls (its stream, schedule, initialRecordTime, reportIfEmpty). */
export const SUBSCRIPTION_CONTROLS_EXCEPTION = 'epcisException:SubscriptionControlsException';

const scheduleField = (name: string, range: string) => ({
  type: 'string',
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
    second: scheduleField('second', '0-59'),
    minute: scheduleField('minute', '0-59'),
    hour: scheduleField('hour', '0-23'),
    dayOfMonth: scheduleField('day of month', '1-31'),
    month: scheduleField('month', '1-12'),
    dayOfWeek: scheduleField('day of week', '1 = Monday to 7 = Sunday'),
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
  },
} as const;

interface SocketQuery extends SubscriptionSchedule {
  stream?: 'true';
  initialRecordTime?: string;
  reportIfEmpty?: 'true' | 'false';
}

const SUBSCRIPTION_PARAMETERS: readonly string[] = ['stream', ...SCHEDULE_FIELDS, 'initialRecordTime', 'reportIfEmpty'];

const controlsProblem = (title: string, issues: { pointer: string; message: string }[]) =>
  epcisProblem(400, SUBSCRIPTION_CONTROLS_EXCEPTION, title, issues);

const socketQueryProblem = (errors: ErrorObject[]) =>
  controlsProblem(
    'The subscription parameters are not valid.',
    errors.map((e) => {
      const name = e.instancePath.slice(1) || textOf(e.params, 'additionalProperty');
      return {
        pointer: `/${name}`,
        message: `${name} ${e.keyword === 'additionalProperties' ? 'is not a subscription parameter: send stream=true or schedule fields (second, minute, hour, dayOfMonth, month, dayOfWeek), with initialRecordTime and reportIfEmpty' : (e.message ?? 'is invalid')}.`,
      };
    }),
  );

/** The stream or schedule the query string asks for, or the 400 saying what is wrong with it. */
function timingOf(query: SocketQuery): SocketTiming {
  const schedule = Object.fromEntries(
    SCHEDULE_FIELDS.flatMap((field) => (query[field] ? [[field, query[field]]] : [])),
  );
  const scheduled = Object.keys(schedule).length > 0;
  if ((query.stream === 'true') === scheduled)
    throw controlsProblem('A query subscription takes stream=true or a schedule.', [
      {
        pointer: '/stream',
        message: 'Send stream=true, or schedule fields (second, minute, hour, dayOfMonth, month, dayOfWeek), not both.',
      },
    ]);
  if (!scheduled) {
    if (query.reportIfEmpty === 'true')
      throw controlsProblem('reportIfEmpty applies to scheduled subscriptions.', [
        {
          pointer: '/reportIfEmpty',
          message: 'reportIfEmpty applies to scheduled subscriptions: a stream reports only matches.',
        },
      ]);
    return { stream: true };
  }
  const ranges = scheduleRanges(schedule);
  if ('issues' in ranges)
    throw controlsProblem(
      'The schedule is not valid.',
      Object.entries(ranges.issues).map(([field, message]) => ({
        pointer: `/${field.replace('schedule.', '')}`,
        message: message.replace(/schedule\./g, ''),
      })),
    );
  return { schedule: ranges.ranges, reportIfEmpty: query.reportIfEmpty === 'true' };
}

function initialRecordTimeOf(query: SocketQuery): Date | undefined {
  if (query.initialRecordTime === undefined) return undefined;
  const time = new Date(query.initialRecordTime);
  if (Number.isNaN(time.getTime()))
    throw controlsProblem('initialRecordTime is not a time this service can compare.', [
      { pointer: '/initialRecordTime', message: `initialRecordTime ${query.initialRecordTime} is not valid.` },
    ]);
  return time;
}

/** The headers the app set so far (request id, GS1 versions, the key's rate limit), for the 101 answer. */
function headersOf(ctx: APIContext): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.response.headers))
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  return headers;
}

const socketRequest = { headers: epcFormatHeader, query: pairedWith<SocketQuery>()(socketQuery) };
const checkSocketRequest = validate(socketRequest, (errors: ErrorObject[], input: unknown, source: Source) =>
  source === 'headers' ? headerProblem(errors, input) : socketQueryProblem(errors),
);

/**
 * In front of GET /queries/{queryName}/events: an upgrade to a WebSocket is a subscription, answered
 * here (the key was checked like any request's); anything else goes on to the query run now. A plain
 * GET with subscription parameters is told to upgrade.
 */
export function querySocket(
  namedQueryOf: (ctx: APIContext) => Promise<NamedQueryRow>,
): Middleware<AppState, AppCustom> {
  return async (ctx, next) => {
    if (!wantsWebSocket(ctx.req)) {
      const given = Object.keys(ctx.query).filter((name) => SUBSCRIPTION_PARAMETERS.includes(name));
      if (given.length)
        throw controlsProblem(
          'A query subscription is a WebSocket: send this request with Upgrade: websocket.',
          given.map((name) => ({
            pointer: `/${name}`,
            message: `${name} subscribes over a WebSocket (GET with Upgrade: websocket), or POST …/subscriptions with a dest for webhooks.`,
          })),
        );
      return next();
    }
    await checkSocketRequest(ctx as Parameters<typeof checkSocketRequest>[0], async () => {
      const context = ctx as unknown as APIContext<InputOf<typeof socketRequest>>;
      const named = await namedQueryOf(context);
      const query = context.state.input.query;
      const timing = timingOf(query);
      const initialRecordTime = initialRecordTimeOf(query);
      if (!context.deps.querySockets.ready)
        throw problem(503, 'Subscriptions over WebSocket are not available for a moment: retry in a few seconds.');
      const epcFormat = epcFormatOf(context);
      context.set('GS1-EPC-Format', epcFormat);
      context.set('GS1-Query-Min-Record-Time', (initialRecordTime ?? new Date()).toISOString());
      const ws = await acceptUpgrade(context.req, context.res, headersOf(context));
      context.respond = false;
      context.status = 101;
      await context.deps.querySockets.open(
        ws,
        {
          id: randomUUID(),
          accountId: context.state.account.id,
          queryName: named.name,
          filter: filterFromJson(named.filter),
          epcFormat,
        },
        timing,
        initialRecordTime,
      );
    });
  };
}
