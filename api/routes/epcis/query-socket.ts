/**
 * GET /epcis/queries/{queryName}/events upgraded to a WebSocket: a query subscription over the socket
 * (GS1's EPCIS 2.0 REST binding), `stream=true` or a schedule, served by usecases/query-sockets.ts.
 */
import type { Middleware } from 'koa';
import { randomUUID } from 'node:crypto';
import { filterFromJson, type NamedQueryRow } from '../../../db/repositories/epcis-queries';
import { SCHEDULE_FIELDS, scheduleRanges } from '../../../domain/epcis/subscription-schedule';
import type { APIContext, AppCustom, AppState } from '../../context';
import { problem } from '../../errors';
import type { SocketTiming } from '../../../usecases/query-sockets';
import { initialReportProblem } from '../../../usecases/webhooks';
import { acceptUpgrade, wantsWebSocket } from '../../upgrades';
import { validate, type InputOf } from '../../middleware/validate';
import { epcFormatOf, headerOr } from './events';
import { parameterProblem } from './presenter';
import { socketQuery, type SocketQuery } from '../../../contract/epcis/queries-schema';
import { epcFormatHeader } from '../../../contract/epcis/schema';

const SUBSCRIPTION_PARAMETERS: readonly string[] = Object.keys(socketQuery.properties);

/** A bad subscription parameter as a bad query parameter is answered, with what the socket takes. */
const socketQueryProblem = parameterProblem(
  'is not a subscription parameter: send stream=true or schedule fields (second, minute, hour, dayOfMonth, month, dayOfWeek), with initialRecordTime, reportIfEmpty and signatureToken',
);

/** The stream or schedule the query string asks for, or the 400 saying what is wrong with it. */
function timingOf(query: SocketQuery): SocketTiming {
  const schedule = Object.fromEntries(
    SCHEDULE_FIELDS.flatMap((field) => (query[field] ? [[field, query[field]]] : [])),
  );
  const scheduled = Object.keys(schedule).length > 0;
  if ((query.stream === 'true') === scheduled)
    throw problem('epcis-stream-or-schedule', {
      issues: [
        {
          pointer: '/stream',
          message:
            'Send stream=true, or schedule fields (second, minute, hour, dayOfMonth, month, dayOfWeek), not both.',
        },
      ],
    });
  if (!scheduled) {
    if (query.reportIfEmpty === 'true')
      throw problem('epcis-report-if-empty-needs-schedule', {
        issues: [{ pointer: '/reportIfEmpty', message: 'reportIfEmpty applies to scheduled subscriptions.' }],
      });
    return { stream: true };
  }
  const ranges = scheduleRanges(schedule);
  if ('issues' in ranges)
    throw problem('epcis-invalid-schedule', {
      issues: Object.entries(ranges.issues).map(([field, message]) => ({
        pointer: `/${field.replace('schedule.', '')}`,
        message: message.replace(/schedule\./g, ''),
      })),
    });
  return { schedule: ranges.ranges, reportIfEmpty: query.reportIfEmpty === 'true' };
}

function initialRecordTimeOf(query: SocketQuery): Date | undefined {
  if (query.initialRecordTime === undefined) return undefined;
  const time = new Date(query.initialRecordTime);
  if (Number.isNaN(time.getTime()))
    throw problem('epcis-invalid-initial-record-time', {
      issues: [
        { pointer: '/initialRecordTime', message: `initialRecordTime ${query.initialRecordTime} is not valid.` },
      ],
    });
  return time;
}

/** The headers the app set so far (request id, GS1 versions, the key's rate limit), for the 101 answer. */
function headersOf(ctx: APIContext): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.response.headers))
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  return headers;
}

const socketRequest = { headers: epcFormatHeader, query: socketQuery };
const checkSocketRequest = validate(socketRequest, headerOr(socketQueryProblem));

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
        throw problem('epcis-subscription-needs-websocket', {
          issues: given.map((name) => ({
            pointer: `/${name}`,
            message: `${name} subscribes over a WebSocket (GET with Upgrade: websocket), or POST …/subscriptions with a dest for webhooks.`,
          })),
        });
      return next();
    }
    await checkSocketRequest(ctx as Parameters<typeof checkSocketRequest>[0], async () => {
      const context = ctx as unknown as APIContext<InputOf<typeof socketRequest>>;
      const named = await namedQueryOf(context);
      const query = context.state.input.query;
      const timing = timingOf(query);
      const initialRecordTime = initialRecordTimeOf(query);
      if (!context.deps.querySockets.ready) throw problem('epcis-query-sockets-unavailable');
      // Either timing's first report is built whole in this process.
      if (initialRecordTime) {
        const issue = await initialReportProblem(
          context.deps.sequelize,
          context.state.account.id,
          named,
          initialRecordTime,
        );
        if (issue) throw problem('epcis-initial-report-too-large', { issues: [issue] });
      }
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
          signatureToken: query.signatureToken,
        },
        timing,
        initialRecordTime,
      );
    });
  };
}
