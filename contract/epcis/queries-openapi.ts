import { problemResponse } from '../openapi/components';
import { taggedOperation } from '../openapi/operation';
import {
  createQueryBody,
  createSubscriptionBody,
  namedQuery,
  namedQueryList,
  subscription,
  socketQuery,
  subscriptionList,
} from './queries-schema';
import { epcFormatHeader, eventsPageQuery, pageQuery, queryDocumentResponse } from './schema';

const operation = taggedOperation('EPCIS queries');

const noSuchName = problemResponse('The account has no query of this name (epcisException:NoSuchNameException).');
const badPage = problemResponse(
  'perPage or nextPageToken is not valid, or a parameter is unknown (epcisException:QueryParameterException).',
);
const queryName = {
  type: 'object',
  properties: { queryName: { type: 'string', minLength: 1, description: 'The query name given when it was created.' } },
} as const;
const subscriptionParams = {
  type: 'object',
  properties: {
    queryName: queryName.properties.queryName,
    subscriptionID: { type: 'string', minLength: 1, description: 'The subscriptionID of the POST answer.' },
  },
} as const;
const noBody = { description: 'Deleted (no content, as GS1’s binding answers).' };

const QUERY_EXAMPLE = { name: 'shippedSalmon', query: { eventType: ['ObjectEvent'], EQ_bizStep: ['shipping'] } };
const SUBSCRIPTION_EXAMPLE = {
  subscriptionID: 'df5a33e3-5aa3-4403-ae01-99b83234e27b',
  queryName: 'shippedSalmon',
  dest: 'https://client.example.com/queryCallback',
  createdAt: '2024-03-01T15:00:00.000Z',
  initialRecordTime: '2024-03-01T15:00:00.000Z',
  reportIfEmpty: false,
  epcFormat: 'Always_GS1_Digital_Link',
  stream: true,
};

const reports =
  'Each report is an EPCISQueryDocument (queryName and subscriptionID in queryResults) POSTed to dest with GS1-Signature: the hex HMAC-SHA256 ' +
  'of the exact body under signatureToken, and Webhook-Id: the report’s id, the same on every retry. Reports go out in order, retried with ' +
  'backoff for 72 hours; only the subscribing account’s events are ever reported.';

export const queriesOperations = [
  operation({
    method: 'post',
    path: '/epcis/queries',
    summary: 'Name a query (EPCIS 2.0 named query)',
    description: 'The query holds the parameters of GET /epcis/events; each is checked as that endpoint checks it.',
    requestBody: { schema: createQueryBody, example: QUERY_EXAMPLE },
    responses: {
      201: { description: 'The query; its URL is in the Location header.', schema: namedQuery },
      400: problemResponse('The body or a query parameter is not valid; `errors` names it by JSON pointer.'),
      409: problemResponse('The account already has a query of this name (epcisException:DuplicateNameException).'),
    },
  }),
  operation({
    method: 'get',
    path: '/epcis/queries',
    summary: 'The account’s named queries',
    query: pageQuery,
    responses: {
      200: {
        description: 'One page of queries; the Link header names the next.',
        schema: namedQueryList,
        example: [QUERY_EXAMPLE],
      },
      400: badPage,
    },
  }),
  operation({
    method: 'get',
    path: '/epcis/queries/{queryName}',
    summary: 'One named query',
    pathParams: queryName,
    responses: { 200: { description: 'The query.', schema: namedQuery, example: QUERY_EXAMPLE }, 404: noSuchName },
  }),
  operation({
    method: 'delete',
    path: '/epcis/queries/{queryName}',
    summary: 'Delete a named query and its subscriptions',
    pathParams: queryName,
    responses: { 204: noBody, 404: noSuchName },
  }),
  operation({
    method: 'get',
    path: '/epcis/queries/{queryName}/events',
    summary: 'Run a named query now, or subscribe to it over a WebSocket',
    description:
      'The events matching the query, as GET /epcis/events answers them: oldest recorded first, paged with perPage (default 1000, the largest page) and nextPageToken (Link rel="next").\n\n' +
      'Upgraded to a WebSocket (`Upgrade: websocket`, GS1’s binding), the request subscribes to the query for as long as the socket is open: ' +
      '`stream=true` sends a report as each batch of matching events completes; schedule fields (second, minute, hour, dayOfMonth, month, dayOfWeek; UTC; ' +
      'reportIfEmpty) send one at each time they name, of the batches completed since the last. `initialRecordTime` adds what was recorded since then to the first report. ' +
      'Each message is a text frame holding an EPCISQueryDocument (JSON-LD) with queryName and the socket’s own subscriptionID, of the key’s account’s events only, ' +
      'as a webhook subscription’s report is, without GS1-Signature: the client opened the connection and checks the server by TLS. ' +
      'The key is checked before the upgrade (X-API-KEY header, as on every route): a missing or wrong key, an unknown query or bad parameters are answered over HTTP, never upgraded. ' +
      'The socket is live only: nothing is kept for it once it closes, and reports are not retried; reconnect with initialRecordTime set to the last recordTime received.',
    pathParams: queryName,
    query: { ...eventsPageQuery, properties: { ...eventsPageQuery.properties, ...socketQuery.properties } },
    headers: epcFormatHeader,
    responses: {
      101: {
        description:
          'Upgraded to a WebSocket (Upgrade: websocket, Connection: Upgrade): the subscription runs until the socket closes. GS1-Query-Min-Record-Time is where the first report starts.',
      },
      200: { description: 'An EPCISQueryDocument whose queryName is the query’s.', schema: queryDocumentResponse },
      400: [
        badPage,
        problemResponse(
          'Over a WebSocket upgrade: a subscription parameter is unknown or not valid, or both or neither of stream and a schedule are given (answered before any upgrade). Without the upgrade: a subscription parameter was sent (code epcis-subscription-needs-websocket).',
        ),
      ],
      404: noSuchName,
      503: problemResponse(
        'A WebSocket upgrade while this API process’s batch announcements (PostgreSQL LISTEN) are reconnecting: retry in a few seconds.',
      ),
    },
  }),
  operation({
    method: 'post',
    path: '/epcis/queries/{queryName}/subscriptions',
    summary: 'Subscribe to a named query',
    description: `Either stream: true (a report of each batch’s newly recorded matching events, when the batch completes) or a schedule (cron-like fields, UTC; a Temporal Schedule runs it; reportIfEmpty; the first report starts at initialRecordTime). dest must be https to a public address. ${reports}`,
    pathParams: queryName,
    headers: epcFormatHeader,
    requestBody: {
      schema: createSubscriptionBody,
      example: {
        dest: SUBSCRIPTION_EXAMPLE.dest,
        signatureToken: '13df38d8275b13f05704629e5f1cf3d45d6132d5',
        stream: true,
      },
    },
    responses: {
      201: {
        description: 'The subscription; its URL is in the Location header.',
        schema: subscription,
        example: SUBSCRIPTION_EXAMPLE,
      },
      400: problemResponse(
        'The body is not valid (dest not https or not public, neither or both of stream and schedule, a schedule field out of range); `errors` names it.',
      ),
      404: noSuchName,
    },
  }),
  operation({
    method: 'get',
    path: '/epcis/queries/{queryName}/subscriptions',
    summary: 'The subscriptions of a named query',
    pathParams: queryName,
    query: pageQuery,
    responses: {
      200: {
        description: 'One page of subscriptions (signatureToken never shown).',
        schema: subscriptionList,
        example: [SUBSCRIPTION_EXAMPLE],
      },
      400: badPage,
      404: noSuchName,
    },
  }),
  operation({
    method: 'get',
    path: '/epcis/queries/{queryName}/subscriptions/{subscriptionID}',
    summary: 'One subscription',
    pathParams: subscriptionParams,
    responses: {
      200: {
        description: 'The subscription; lastNotifiedAt is when dest last answered 2xx.',
        schema: subscription,
        example: SUBSCRIPTION_EXAMPLE,
      },
      404: problemResponse(
        'No such query (NoSuchNameException) or subscription of it (epcisException:NoSuchSubscriptionException).',
      ),
    },
  }),
  operation({
    method: 'delete',
    path: '/epcis/queries/{queryName}/subscriptions/{subscriptionID}',
    summary: 'Unsubscribe',
    description: 'Nothing more is reported; reports still owed are cancelled and its schedule deleted.',
    pathParams: subscriptionParams,
    responses: { 204: noBody, 404: problemResponse('No such query or subscription of it.') },
  }),
];
