/**
 * Every problem the API answers with, by its stable `code`: a client matches on the code, never on the
 * title's prose. The title is the same for every occurrence (RFC 9457); what differs goes in `detail`
 * and `errors`. docs/errors.md is written from this list (test/docs/errors.test.ts keeps them equal).
 */
export interface CatalogueEntry {
  status: number;
  title: string;
  /** GS1's EPCIS exception name under /epcis; without it, the RFC 9110 section of the status. */
  gs1?: string;
  means: string;
  fix: string;
}

/** The status and GS1 exception that several /epcis answers share. */
const VALIDATION = { status: 400, gs1: 'epcisException:ValidationException' } as const;
const QUERY_PARAMETER = { status: 400, gs1: 'epcisException:QueryParameterException' } as const;
const NO_SUCH_RESOURCE = { status: 404, gs1: 'epcisException:NoSuchResourceException' } as const;
const SUBSCRIPTION_CONTROLS = { status: 400, gs1: 'epcisException:SubscriptionControlsException' } as const;
/** GS1 EPCIS 2.0 has no exception for throttling: its generic one, as its other 5xx-like answers use. */
const IMPLEMENTATION = 'epcisException:ImplementationException';

const VALIDATION_TITLE = 'One or more validation errors occurred.';
const KEY_THROTTLED = {
  status: 429,
  title: 'Too many requests with this API key.',
  means: 'The key made more requests than its per-second rate and burst allow; `detail` gives both.',
  fix: 'Wait the seconds Retry-After says, then send again; spread requests out, or ask for a higher rate.',
} as const;
const FAILED_KEYS_THROTTLED = {
  status: 429,
  title: 'Too many requests with a wrong API key from this address.',
  means:
    'This client address sent too many keys that are not valid in a minute; its wrong keys are refused a while (a valid key from it is still served).',
  fix: 'Fix the key the client sends, then wait the seconds Retry-After says.',
} as const;
const UNKNOWN_XML = { means: 'The XML body could not be read as an EPCIS document; nothing was captured.' } as const;

export const ERRORS = {
  // Authentication and limits (SPEC.md, Authentication 6 and 7: the two key answers keep their shape).
  'missing-api-key': {
    status: 400,
    title: VALIDATION_TITLE,
    means: 'The X-API-KEY header is missing or empty; `errors` names it.',
    fix: 'Send the account’s API key in the X-API-KEY header.',
  },
  'invalid-api-key': {
    status: 401,
    title: 'The API key is not valid.',
    means: 'No account has the key sent in X-API-KEY, or it was revoked.',
    fix: 'Send a current key (npm run apikey -- create makes one).',
  },
  'too-many-requests': KEY_THROTTLED,
  'too-many-failed-keys': FAILED_KEYS_THROTTLED,
  'epcis-too-many-requests': { ...KEY_THROTTLED, gs1: IMPLEMENTATION },
  'epcis-too-many-failed-keys': { ...FAILED_KEYS_THROTTLED, gs1: IMPLEMENTATION },

  // Any request
  'invalid-request': {
    status: 400,
    title: VALIDATION_TITLE,
    means: 'A header, path, query or body field is missing or wrong; `errors` names each field with what is wrong.',
    fix: 'Correct each field `errors` names and send again.',
  },
  'malformed-json': {
    status: 400,
    title: 'The request body is not valid JSON.',
    means: 'The body could not be parsed as JSON; `detail` has the parser’s message.',
    fix: 'Send well-formed JSON (UTF-8).',
  },
  'forbidden-json-key': {
    status: 400,
    title: 'The request body is not accepted.',
    means: 'The body names a key JavaScript treats specially (`__proto__`, `constructor`, `prototype`).',
    fix: 'Remove the key `errors` names.',
  },
  'unreadable-body': {
    status: 400,
    title: 'The request body could not be read.',
    means:
      'The body ended early, did not match its Content-Length, or its multipart form is broken; `detail` says which.',
    fix: 'Send the whole body again as the Content-Type says.',
  },
  'body-too-large': {
    status: 413,
    title: 'The request body is too large.',
    means: 'The body is larger than this endpoint takes; `detail` gives the limit.',
    fix: 'Send less in one request (split a batch of events or master data).',
  },
  'not-json': {
    status: 415,
    title: 'The request body must be JSON.',
    means: 'The Content-Type is not a JSON media type; `accepted` lists those that are.',
    fix: 'Send Content-Type: application/json.',
  },
  'unsupported-media-type': {
    status: 415,
    title: 'Unsupported content type.',
    means: 'The body’s Content-Type, charset or encoding is one this endpoint cannot read.',
    fix: 'Send the media type the endpoint documents, in UTF-8 without a Content-Encoding.',
  },
  'invalid-idempotency-key': {
    status: 400,
    title: 'Idempotency-Key must be 1 to 200 visible ASCII characters.',
    means: 'The Idempotency-Key header is empty, too long, or has a character outside visible ASCII.',
    fix: 'Send a key of 1 to 200 visible ASCII characters, such as a UUID.',
  },
  'idempotency-key-reused': {
    status: 422,
    title: 'The Idempotency-Key was first used with another request.',
    means: 'The key names an earlier batch or import whose body differs from this one; `detail` names it.',
    fix: 'Send a new key for a new request; send the same body to get the earlier answer again.',
  },
  'no-route': {
    status: 404,
    title: 'No route for this method and path.',
    means: 'The service has no endpoint at this path; `detail` repeats the method and path.',
    fix: 'Check the path against /openapi.json (letter case counts).',
  },
  'method-not-allowed': {
    status: 405,
    title: 'The method is not allowed on this path.',
    means: 'The path exists but takes other methods; the Allow header lists them.',
    fix: 'Use a method the Allow header lists.',
  },
  'resource-exists': {
    status: 409,
    title: 'The resource already exists.',
    means: 'Something with the same identity was stored first, perhaps by a request sent at the same time.',
    fix: 'Read the stored resource, or send it under another id.',
  },
  'unknown-reference': {
    status: 400,
    title: 'The request refers to a record that does not exist.',
    means: 'An id in the request names nothing stored, perhaps deleted by a request sent at the same time.',
    fix: 'Create the record it names first, or correct the id.',
  },
  'database-unavailable': {
    status: 503,
    title: 'The database is unavailable for a moment; send the request again (events with the same Idempotency-Key).',
    means: 'PostgreSQL is restarting or refusing connections; nothing of this request was stored.',
    fix: 'Send the request again in a moment; events with the same Idempotency-Key, so none is stored twice.',
  },
  'unexpected-error': {
    status: 500,
    title: 'An unexpected error occurred.',
    means: 'A fault in the service; it is logged with the traceId.',
    fix: 'Send again later; if it stays, report the traceId.',
  },
  'not-ready': {
    status: 503,
    title: 'The service is not ready.',
    means: 'GET /readyz found a dependency (PostgreSQL, Temporal, the worker) not answering; `checks` says which.',
    fix: 'Wait for the dependency `checks` names, or look at its logs.',
  },

  // Resources a request names that this account does not have
  'unknown-product': {
    status: 404,
    title: 'Product not found.',
    means: 'This account has no product with the id or GTIN `detail` names.',
    fix: 'Create the product first (PUT /Integration/Products), or correct the id.',
  },
  'unknown-location': {
    status: 404,
    title: 'Location not found.',
    means: 'This account has no location with the id or GLN `detail` names.',
    fix: 'Create the location first (PUT /Integration/Locations), or correct the id.',
  },
  'unknown-trade-partner': {
    status: 404,
    title: 'Trade partner not found.',
    means: 'This account has no trade partner with the PGLN `detail` names.',
    fix: 'Create the trade partner with a location first, or correct the PGLN.',
  },
  'unknown-document': {
    status: 404,
    title: 'Document not found.',
    means: 'This account has no document with the id `detail` names, or it is another account’s private one.',
    fix: 'Correct the document id (POST /Integration/Documents answers with it).',
  },
  'unknown-batch': {
    status: 404,
    title: 'Batch not found.',
    means: 'No batch with this id in this account (a support key sees every account).',
    fix: 'Use the batchId the submission answered with.',
  },
  'unknown-import': {
    status: 404,
    title: 'Import not found.',
    means: 'No import with this id in this account.',
    fix: 'Use the importId POST /Integration/Imports answered with.',
  },
  'unknown-import-template': {
    status: 404,
    title: 'No such import template.',
    means: 'No import kind has this name; `detail` lists the kinds.',
    fix: 'Ask for one of the kinds `detail` lists.',
  },
  'unknown-recall': {
    status: 404,
    title: 'Recall not found.',
    means: 'No recall with this id was issued by or sent to this account (only a recipient acknowledges one).',
    fix: 'Use the id of a recall this account issued or received.',
  },
  'recall-closed': {
    status: 409,
    title: 'The recall is closed.',
    means: 'Its issuer closed the recall: it takes no more answers and is passed on no further.',
    fix: 'Nothing to do; ask the issuer if your answer still matters to it.',
  },
  'unknown-webhook-endpoint': {
    status: 404,
    title: 'Webhook endpoint not found.',
    means: 'No webhook endpoint with this id in this account.',
    fix: 'Use the id POST /Integration/Webhooks answered with.',
  },
  'unknown-webhook-delivery': {
    status: 404,
    title: 'Webhook delivery not found.',
    means: 'The endpoint has no delivery with this id.',
    fix: 'Use a delivery id from GET /Integration/Webhooks/{id}/deliveries.',
  },
  'unknown-docs-asset': {
    status: 404,
    title: 'Docs asset not found.',
    means: 'The API reference page has no file of this name.',
    fix: 'Open /docs and follow its links.',
  },
  'unknown-trace-node': {
    status: 404,
    title: 'Node not found.',
    means: 'The trace has no node with the NodeId sent.',
    fix: 'Use a node id from the same trace’s answer.',
  },

  // Digital Link resolver
  'invalid-gs1-key': {
    status: 400,
    title: 'The GS1 key is not valid.',
    means: 'The GTIN, GLN or PGLN in the path has the wrong length or check digit.',
    fix: 'Send the key with its digits and GS1 check digit.',
  },
  'unknown-link-type': {
    status: 404,
    title: 'This resolver has no link of that type.',
    means: 'The linkType asked for is not one this resolver serves; `detail` lists those it has.',
    fix: 'Ask for a linkType `detail` lists, or none.',
  },
  'unknown-lot-or-serial': {
    status: 404,
    title: 'No event of this account names that lot or serial.',
    means:
      "The product exists but no event of this account names the lot or serial: the resolver's path, or a recall's `LotSerial` (a recall of it would reach no one).",
    fix: 'Correct the lot or serial, or record the events that name it first.',
  },

  // Batches and imports
  'batch-pipeline-failed': {
    status: 503,
    title: 'The pipeline could not process the batch; nothing was stored.',
    means: 'Processing the batch failed inside the service; `detail` has the first error, `statusUrl` the batch.',
    fix: 'Send the batch again (with the same Idempotency-Key).',
  },
  'batch-not-started': {
    status: 503,
    title: 'The batch was stored but its processing could not be started now.',
    means: 'The batch is kept and is started automatically within the seconds `detail` gives.',
    fix: 'Follow `statusUrl` for its result; do not send it again.',
  },
  'batch-not-retryable': {
    status: 409,
    title: 'The batch cannot be retried.',
    means:
      'Only a Failed batch that was not retried, replaced or abandoned is retried; `detail` says why this one is not.',
    fix: 'Follow `retriedBy` or `replacedBy` when given; otherwise send the events as a new batch.',
  },
  'batch-not-abandonable': {
    status: 409,
    title: 'The batch cannot be abandoned.',
    means: 'Only a Failed batch is abandoned; `detail` says why this one is not.',
    fix: 'Follow `replacedBy` when given; a batch that is not Failed needs nothing.',
  },
  'support-key-required': {
    status: 403,
    title:
      'Only a support key abandons a batch (npm run apikey -- create --role support). An account key can retry its failed batch, or send its events as a new batch.',
    means: 'The request needs a support key; an account key sent it.',
    fix: 'Retry the batch with the account key, or ask support to abandon it.',
  },
  'import-too-large': {
    status: 413,
    title: 'The import file is too large; split the file.',
    means: 'The file has more bytes or rows than an import takes; `maxBytes` and `maxRows` give the limits.',
    fix: 'Split the file into parts under both limits and import each.',
  },
  'import-not-started': {
    status: 503,
    title: 'The import was stored but could not be started now.',
    means: 'The import is kept and is started automatically within the seconds `detail` gives.',
    fix: 'Follow `statusUrl` for its result; do not send it again.',
  },
  'unreadable-spreadsheet': {
    status: 400,
    title: 'The spreadsheet could not be read.',
    means: 'The file is not a CSV or XLSX file that can be read; `detail` says where it failed.',
    fix: 'Save the file again as CSV (UTF-8) or XLSX from the template.',
  },
  'import-header-mismatch': {
    status: 400,
    title: 'The header row does not fit the template.',
    means: 'Columns are missing, unknown or repeated; `errors` names each column.',
    fix: 'Start from the kind’s template (GET /Integration/Imports/templates/{kind}).',
  },

  // EPCIS 2.0 (type: GS1's exception name)
  'epcis-invalid-query-parameters': {
    ...QUERY_PARAMETER,
    title: 'The query parameters are not valid.',
    means: 'A query parameter is unknown or has a value of the wrong form; `errors` names each by JSON pointer.',
    fix: 'Correct the parameters `errors` names (GS1 EPCIS 2.0 query parameters).',
  },
  'epcis-invalid-query-time': {
    ...QUERY_PARAMETER,
    title: 'A time parameter is not a date-time this service can compare.',
    means: 'A `GE_` or `LT_` time parameter is not an RFC 3339 date-time JavaScript can hold (a leap second, for one).',
    fix: 'Send the time as 2024-01-31T12:00:00Z or with an offset.',
  },
  'epcis-unreadable-epc-pattern': {
    ...QUERY_PARAMETER,
    title: 'An EPC parameter has a pattern this service cannot read.',
    means: 'A `MATCH_` parameter holds something that is neither an EPC URI nor an EPC pattern.',
    fix: 'Send an EPC or a pattern such as `urn:epc:idpat:sgtin:4012345.012345.*`.',
  },
  'epcis-query-too-large': {
    status: 413,
    gs1: 'epcisException:QueryTooLargeException',
    title: 'The query matches more events than maxEventCount.',
    means: 'More events match the query than its `maxEventCount` allows; none is answered.',
    fix: 'Narrow the query, raise maxEventCount, or take the first events with orderBy and eventCountLimit.',
  },
  'epcis-invalid-page-token': {
    ...QUERY_PARAMETER,
    title: 'nextPageToken is not one this service gave out.',
    means: 'The page token was changed or comes from another service.',
    fix: 'Follow the Link header of the previous page as it is.',
  },
  'epcis-invalid-query': {
    ...QUERY_PARAMETER,
    title: 'The query is not valid.',
    means: 'The stored query’s parameters break the query schema; `errors` names each.',
    fix: 'Correct the parameters `errors` names.',
  },
  'epcis-invalid-body': {
    ...VALIDATION,
    title: 'The request body is not valid.',
    means: 'A field of the body is missing, unknown or wrong; `errors` names each by JSON pointer.',
    fix: 'Correct the fields `errors` names.',
  },
  'epcis-invalid-header': {
    ...VALIDATION,
    title: 'A GS1 header has a value this service does not take.',
    means:
      'GS1-EPC-Format, GS1-CBV-Format, GS1-CBV-XML-Format or GS1-Capture-Error-Behaviour has an unknown value (`detail` lists those allowed), or GS1-Extensions is not a list of `prefix=IRI`.',
    fix: 'Send one of the values `detail` lists (GS1-Extensions: `example=https://ns.example.com/epcis/`, several separated by commas), or leave the header out.',
  },
  'epcis-capture-limit-exceeded': {
    status: 413,
    gs1: 'epcisException:CaptureLimitExceededException',
    title: 'The capture holds more events than GS1-EPCIS-Capture-Limit.',
    means: 'The document has more events than one capture takes; `detail` gives both counts.',
    fix: 'Split the document into captures of at most GS1-EPCIS-Capture-Limit events.',
  },
  'epcis-not-epcis-media-type': {
    status: 415,
    title: 'The body must be EPCIS JSON-LD or EPCIS XML.',
    means: 'The Content-Type is neither JSON(-LD) nor XML; `accepted` lists those that are.',
    fix: 'Send Content-Type: application/ld+json or application/xml.',
  },
  'epcis-xml-too-large': {
    status: 413,
    title: 'The XML document is too large to validate against GS1’s XSD: send it in smaller captures.',
    means: 'The XSD validator ran out of memory on this document.',
    fix: 'Send the events in several smaller captures.',
  },
  'epcis-invalid-document': {
    ...VALIDATION,
    title: 'The document is not valid EPCIS 2.0 JSON: nothing was captured.',
    means: 'The document breaks GS1’s EPCIS 2.0 JSON schema; `errors` names each place by JSON pointer.',
    fix: 'Correct each place `errors` names.',
  },
  'epcis-invalid-event': {
    ...VALIDATION,
    title: 'The event is not valid EPCIS 2.0 JSON: nothing was captured.',
    means: 'The event breaks GS1’s EPCIS 2.0 JSON schema; `errors` names each place by JSON pointer.',
    fix: 'Correct each place `errors` names.',
  },
  'epcis-rule-broken': {
    ...VALIDATION,
    title: 'The document breaks a rule of EPCIS 2.0: nothing was captured.',
    means:
      'The document passes the schema but breaks a rule of the standard (an unknown vocabulary, a quantity without a class); `errors` names each.',
    fix: 'Correct each place `errors` names.',
  },
  'epcis-one-event-only': {
    ...VALIDATION,
    title: 'POST /epcis/events takes one event: nothing was captured.',
    means: 'The XML document sent to POST /epcis/events holds no event or more than one.',
    fix: 'Send one event, or send the document to POST /epcis/capture.',
  },
  'epcis-event-refused': {
    ...VALIDATION,
    title: 'The event could not be captured: nothing was stored.',
    means:
      'The pipeline refused the event (an unknown product or location, an eventID already stored); `errors` says why.',
    fix: 'Correct what `errors` names and send the event again.',
  },
  'epcis-malformed-xml': {
    ...VALIDATION,
    title: 'The body is not well-formed XML: nothing was captured.',
    ...UNKNOWN_XML,
    fix: 'Send well-formed XML; `errors` gives the line of the first fault.',
  },
  'epcis-xml-encoding': {
    ...VALIDATION,
    title: 'The body is not text in the encoding it names: nothing was captured.',
    ...UNKNOWN_XML,
    fix: 'Send UTF-8, or name the encoding the bytes are in.',
  },
  'epcis-empty-body': {
    ...VALIDATION,
    title: 'The body is empty: nothing was captured.',
    ...UNKNOWN_XML,
    fix: 'Send the EPCIS document in the body.',
  },
  'epcis-xml-refused': {
    ...VALIDATION,
    title: 'The XML is refused: nothing was captured.',
    ...UNKNOWN_XML,
    fix: 'Remove the DTD or entity declarations: EPCIS XML needs none.',
  },
  'epcis-not-epcis-document': {
    ...VALIDATION,
    title: 'The XML is not an EPCIS document: nothing was captured.',
    ...UNKNOWN_XML,
    fix: 'Send an EPCISDocument or EPCISQueryDocument of GS1’s namespace.',
  },
  'epcis-invalid-xml': {
    ...VALIDATION,
    title: 'The document is not valid EPCIS XML (GS1’s XSD): nothing was captured.',
    means: 'The document breaks GS1’s XSD of its EPCIS version; `errors` names each element by XPath with its line.',
    fix: 'Correct each element `errors` names.',
  },
  'epcis-xml-mapping-invalid': {
    ...VALIDATION,
    title:
      'The document read as EPCIS 2.0 JSON-LD (GS1’s mapping) is not valid against GS1’s JSON schema: nothing was captured.',
    means:
      'The XML passes GS1’s XSD, but what GS1’s mapping makes of it breaks the EPCIS 2.0 JSON schema; `errors` names each element.',
    fix: 'Correct each element `errors` names.',
  },
  'epcis-xml-not-convertible': {
    ...VALIDATION,
    title: 'The document has what EPCIS 2.0 JSON-LD cannot hold: nothing was captured.',
    means: 'An element of the XML has no place in EPCIS 2.0 JSON-LD, in which the service stores events.',
    fix: 'Remove or correct the elements `errors` names.',
  },
  'epcis-unstorable-value': {
    ...VALIDATION,
    title: 'The document has a value this service cannot store: nothing was captured.',
    means: 'A value holds a character PostgreSQL cannot store (NUL).',
    fix: 'Remove the character `errors` names.',
  },
  'epcis-unknown-capture-job': {
    ...NO_SUCH_RESOURCE,
    title: 'No such capture job in this account.',
    means: 'No capture with this captureID in this account.',
    fix: 'Use the captureID (Location) POST /epcis/capture answered with.',
  },
  'epcis-unknown-event': {
    ...NO_SUCH_RESOURCE,
    title: 'No event with that eventID in this account.',
    means: 'This account has no event with the eventID in the path.',
    fix: 'Use the eventID the capture gave, URL-encoded.',
  },
  'epcis-unknown-resource': {
    ...NO_SUCH_RESOURCE,
    title: 'None of the account’s events names it.',
    means: 'No event of this account names the EPC, business step, location or other value in the path.',
    fix: 'List the values events name (GET /epcis/{resource}) and use one.',
  },
  'epcis-unknown-query': {
    status: 404,
    gs1: 'epcisException:NoSuchNameException',
    title: 'No query of this name in this account.',
    means: 'The account has no named query with the name in the path.',
    fix: 'Create it (POST /epcis/queries) or use a name GET /epcis/queries lists.',
  },
  'epcis-duplicate-query': {
    status: 409,
    gs1: 'epcisException:DuplicateNameException',
    title: 'This account already has a query of this name.',
    means: 'A named query is created once.',
    fix: 'Choose another name, or delete the old query first.',
  },
  'epcis-unknown-subscription': {
    status: 404,
    gs1: 'epcisException:NoSuchSubscriptionException',
    title: 'No such subscription of this query.',
    means: 'The query has no subscription with the id in the path.',
    fix: 'Use an id GET /epcis/queries/{name}/subscriptions lists.',
  },
  'epcis-stream-or-schedule': {
    ...VALIDATION,
    title: 'A subscription has either stream: true or a schedule.',
    means: 'The subscription has both, or neither.',
    fix: 'Send stream: true, or a schedule, not both.',
  },
  'epcis-invalid-schedule': {
    ...VALIDATION,
    title: 'The schedule is not valid.',
    means: 'A field of the schedule is out of range; `errors` names each.',
    fix: 'Correct the schedule fields `errors` names.',
  },
  'epcis-invalid-dest': {
    ...VALIDATION,
    title: 'dest is not a URL this service delivers to.',
    means: 'The subscription’s dest is not an https URL of a host the service may call; `detail` says why.',
    fix: 'Send an https URL of a public host (or one `WEBHOOK_ALLOWED_HOSTS` lists).',
  },
  'epcis-invalid-initial-record-time': {
    ...VALIDATION,
    title: 'initialRecordTime is not a time this service can compare.',
    means: 'initialRecordTime is not an RFC 3339 date-time JavaScript can hold.',
    fix: 'Send it as 2024-01-31T12:00:00Z or with an offset.',
  },
  'epcis-initial-report-too-large': {
    ...SUBSCRIPTION_CONTROLS,
    title: 'initialRecordTime reaches back over more events than a first report carries.',
    means:
      'A webhook stream, or a WebSocket subscription, reports what matched since its initialRecordTime as it subscribes, at most 10,000 events (in reports of 1,000 at most); more match.',
    fix: 'Read the history with GET /epcis/queries/{name}/events and GE_recordTime, page by page, and subscribe from a later initialRecordTime.',
  },
  'epcis-subscription-needs-websocket': {
    ...SUBSCRIPTION_CONTROLS,
    title: 'A query subscription without a dest is a WebSocket.',
    means:
      'GET /epcis/queries/{name}/events has stream, a schedule field, initialRecordTime or reportIfEmpty but no Upgrade: websocket; `errors` names each.',
    fix: 'Send the request as a WebSocket upgrade (Upgrade: websocket), or POST …/subscriptions with a dest for webhooks.',
  },
  'epcis-report-if-empty-needs-schedule': {
    ...SUBSCRIPTION_CONTROLS,
    title: 'reportIfEmpty applies to scheduled subscriptions.',
    means: 'A stream reports only matches: reportIfEmpty=true has nothing to act on with stream=true.',
    fix: 'Leave reportIfEmpty out, or subscribe with a schedule.',
  },
  'epcis-invalid-websocket-handshake': {
    ...VALIDATION,
    title: 'The WebSocket handshake is not valid.',
    means: 'The upgrade request lacks a header RFC 6455 requires (Sec-WebSocket-Key, version 13); `detail` says which.',
    fix: 'Open the socket with a WebSocket client library.',
  },
  'epcis-query-sockets-unavailable': {
    status: 503,
    gs1: IMPLEMENTATION,
    title: 'Subscriptions over WebSocket are not available for a moment.',
    means:
      'This API process is reconnecting to PostgreSQL’s batch announcements; a socket opened now could miss reports.',
    fix: 'Retry in a few seconds, with initialRecordTime to miss nothing.',
  },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof ERRORS;

export const isErrorCode = (code: unknown): code is ErrorCode =>
  typeof code === 'string' && Object.hasOwn(ERRORS, code);

const SECTION: Record<number, string> = {
  400: '15.5.1',
  401: '15.5.2',
  403: '15.5.4',
  404: '15.5.5',
  405: '15.5.6',
  409: '15.5.10',
  413: '15.5.14',
  415: '15.5.16',
  422: '15.5.21',
  500: '15.6.1',
  503: '15.6.4',
};

export const problemType = (status: number): string =>
  status === 429
    ? 'https://tools.ietf.org/html/rfc6585#section-4' // not an RFC 9110 status
    : `https://tools.ietf.org/html/rfc9110#section-${SECTION[status] ?? (status >= 500 ? '15.6.1' : '15.5.1')}`;

/** The `type` of a code's problems: GS1's exception name under /epcis, else the status's RFC section. */
export const typeOf = (code: ErrorCode): string => {
  const entry = ERRORS[code];
  return 'gs1' in entry ? entry.gs1 : problemType(entry.status);
};
