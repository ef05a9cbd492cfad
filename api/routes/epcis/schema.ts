/**
 * GS1's EPCIS 2.0 JSON Schema (gs1-epcis-json-schema.json, as GS1 publishes it, unchanged) and the
 * schemas of our answers under /epcis. The GS1 schema is draft-07 and written for its own validator: it
 * names required properties only some branches define, so it gets an ajv of its own without strict mode
 * (the service's ajv keeps strict mode for our schemas).
 */
import { EPC_FORMATS, type EpcFormat } from '../../../db/queries/epcis-documents';
import { CBV_FORMATS } from '../../../domain/epcis/cbv-forms';
import { LIMITS } from '../../limits';
import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import gs1Schema from './gs1-epcis-json-schema.json';

/** A valid document is confirmed by the first pass, which stops at the first error; only a failing one is walked again for every error. */
function gs1Validator(allErrors: boolean) {
  const ajv = new Ajv({ allErrors, strict: false, validateFormats: true });
  addFormats(ajv);
  return ajv.compile(gs1Schema);
}
const isValidDocument = gs1Validator(false);
const checkDocument = gs1Validator(true);

import { CAPTURE_ERROR_BEHAVIOURS } from '../../../usecases/capture-epcis';
export { CAPTURE_ERROR_BEHAVIOURS };
export type { CaptureErrorBehaviour } from '../../../usecases/capture-epcis';

/** POST /epcis/capture's header: absent (or blank) is rollback. */
export const captureHeaders = {
  type: 'object',
  properties: {
    'GS1-Capture-Error-Behaviour': {
      type: 'string',
      enum: CAPTURE_ERROR_BEHAVIOURS,
      description: 'rollback (default) or proceed.',
    },
  },
} as const;

export type { EpcisCaptureRequest, EpcisEventWarning } from '../../../usecases/capture-epcis';

export interface SchemaIssue {
  /** JSON pointer into the request body ('' is the whole body). */
  pointer: string;
  message: string;
}

function issueOf(error: ErrorObject): SchemaIssue {
  let pointer = error.instancePath;
  if (error.keyword === 'required') pointer += `/${String(error.params.missingProperty)}`;
  if (error.keyword === 'additionalProperties') pointer += `/${String(error.params.additionalProperty)}`;
  const detail =
    error.keyword === 'enum'
      ? `must be one of ${(error.params.allowedValues as unknown[]).join(', ')}`
      : error.keyword === 'required'
        ? 'is required'
        : error.keyword === 'additionalProperties'
          ? 'is not allowed here'
          : (error.message ?? 'is invalid');
  return { pointer, message: `${pointer || '/'} ${detail}.` };
}

/**
 * What GS1's schema finds wrong with a document or an event, by JSON pointer. Branch bookkeeping
 * (`if`, `oneOf`/`anyOf` summaries) only repeats what the inner errors say, so it is left out unless
 * nothing else is left.
 */
export function gs1SchemaIssues(body: unknown): SchemaIssue[] {
  if (isValidDocument(body) || checkDocument(body)) return [];
  const errors = checkDocument.errors ?? [];
  const specific = errors.filter((e) => !['if', 'oneOf', 'anyOf', 'allOf', 'not'].includes(e.keyword));
  const seen = new Set<string>();
  const issues: SchemaIssue[] = [];
  for (const issue of (specific.length ? specific : errors).map(issueOf)) {
    if (!seen.has(issue.message)) issues.push(issue);
    seen.add(issue.message);
  }
  return issues;
}

const DEFAULT_PER_PAGE = 30;
const MAX_PER_PAGE = 1000;

const perPageProperty = (description: string) =>
  ({
    // Query values arrive as strings.
    type: 'string',
    pattern: '^0*[1-9][0-9]{0,8}$',
    description,
    example: '30',
  }) as const;

const nextPageToken = {
  type: 'string',
  minLength: 1,
  maxLength: 100,
  description: 'The token of the Link rel="next" header of the previous page.',
} as const;

/** perPage and nextPageToken, as every paged /epcis resource takes them. */
const pageQueryProperties = {
  perPage: perPageProperty(
    `How many results a page holds: default ${DEFAULT_PER_PAGE}, larger values than ${MAX_PER_PAGE} answer ${MAX_PER_PAGE}.`,
  ),
  nextPageToken,
} as const;

/** The same for pages of events, whose default is the largest page. */
const eventsPageQueryProperties = {
  perPage: perPageProperty(
    `How many events a page holds: default ${MAX_PER_PAGE}, the largest page (GS1’s binding says 30: clients that never follow Link rel="next", as GDST’s reference client, would lose the rest); larger values than ${MAX_PER_PAGE} answer ${MAX_PER_PAGE}.`,
  ),
  nextPageToken,
} as const;

export interface PageQuery {
  perPage?: string;
  nextPageToken?: string;
}

export const perPageOf = (query: PageQuery): number =>
  Math.min(MAX_PER_PAGE, query.perPage ? Number(query.perPage) : DEFAULT_PER_PAGE);

/**
 * A page of events holds the most a page holds unless perPage says less: a traceback step of a client
 * that never follows Link rel="next" (GDST's reference client) then loses nothing below that.
 */
export const eventsPerPageOf = (query: PageQuery): number =>
  Math.min(MAX_PER_PAGE, query.perPage ? Number(query.perPage) : MAX_PER_PAGE);

/** A capture job's path id: anything but a UUID names no job (404, as an unknown one). */
export const captureIdParams = {
  type: 'object',
  required: ['captureID'],
  properties: {
    captureID: {
      type: 'string',
      pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
      description: 'The captureID of the 202 answer (its Location).',
    },
  },
} as const;

/** perPage and nextPageToken alone: the capture jobs and the top-level resources. */
export const pageQuery = { type: 'object', additionalProperties: false, properties: pageQueryProperties } as const;
export const eventsPageQuery = {
  type: 'object',
  additionalProperties: false,
  properties: eventsPageQueryProperties,
} as const;

const problemList = {
  type: 'array',
  items: {
    type: 'object',
    required: ['type', 'title'],
    properties: {
      type: { type: 'string' },
      title: { type: 'string' },
      status: { type: 'integer' },
      detail: { type: 'string' },
      eventID: { type: 'string' },
    },
  },
} as const;

const masterDataChanges = (key: string) =>
  ({
    type: 'array',
    items: {
      type: 'object',
      required: ['id', 'key', 'change', 'fields'],
      properties: {
        id: { type: 'string', description: 'Its id in this account (a Digital Link URI for one the capture created).' },
        key: { type: 'string', description: `The ${key} the document named it by.` },
        change: { enum: ['created', 'updated'] },
        fields: {
          type: 'array',
          items: { type: 'string' },
          description: 'The fields the document set: name, address, vessel, captainsName.',
        },
      },
    },
  }) as const;

/** GET /epcis/capture/{captureID}: the standard's CaptureJob, plus the master data the capture created. */
export const captureJobResponse = {
  type: 'object',
  required: ['captureID', 'createdAt', 'running', 'success', 'captureErrorBehaviour', 'errors'],
  properties: {
    captureID: {
      type: 'string',
      description: 'The capture job, which is the batch that runs it (GET /Integration/Batches/{id} shows it too).',
    },
    createdAt: { type: 'string', format: 'date-time' },
    finishedAt: { type: 'string', format: 'date-time', description: 'Absent while the job runs.' },
    running: { type: 'boolean' },
    success: { type: 'boolean', description: 'False when any event was refused (rollback: then none was stored).' },
    captureErrorBehaviour: { enum: CAPTURE_ERROR_BEHAVIOURS },
    errors: { ...problemList, description: 'One problem per refused event.' },
    warnings: {
      type: 'array',
      description:
        'Beyond the standard. NegativeInventory: one per lot and location this capture took from that now reads negative (EPCIS records an overdraw instead of ' +
        'refusing it); an event that added the lot is missing, and the warning clears once it is captured. MissingGdstKde: one per GDST 1.2 Key Data Element ' +
        'an event that speaks GDST lacks (product owner, information provider, vessel catch information, certificates…), listed per event; the event is captured all the same. ' +
        'FieldLeftOut: a field of no namespace in an EPCIS 1.2 XML extension slot (valid there, but JSON-LD cannot name it), left out of the captured event.',
      items: {
        anyOf: [
          {
            type: 'object',
            required: ['type', 'title', 'product', 'lotSerial', 'location', 'quantity'],
            properties: {
              type: { const: 'NegativeInventory' },
              title: { type: 'string' },
              product: {
                type: 'string',
                description: 'The product id (a GTIN as Digital Link URI for products a capture created).',
              },
              lotSerial: { type: 'string' },
              location: {
                type: 'string',
                description: 'The location id (a GLN as Digital Link URI for locations a capture created).',
              },
              quantity: { type: 'number', description: 'The lowest balance of the lot there.', example: -20 },
            },
          },
          {
            type: 'object',
            required: ['type', 'index', 'eventID', 'pointer', 'title'],
            properties: {
              type: { enum: ['MissingGdstKde', 'FieldLeftOut'] },
              index: { type: 'integer', description: 'The event’s index in the document.' },
              eventID: { type: 'string' },
              pointer: {
                type: 'string',
                description:
                  'JSON pointer of the missing KDE in the captured document (FieldLeftOut: the XML element).',
                example: '/epcisBody/eventList/0/gdst:productOwner',
              },
              title: { type: 'string' },
            },
          },
        ],
      },
    },
    createdMasterData: {
      type: 'object',
      description:
        'Products (by GTIN) and locations (by GLN or URI) the account did not have when the capture was accepted: the capture creates them.',
      required: ['products', 'locations'],
      properties: {
        products: { type: 'array', items: { type: 'string' } },
        locations: { type: 'array', items: { type: 'string' } },
      },
    },
    masterData: {
      type: 'object',
      description:
        'What the document’s epcisHeader.epcisMasterData created or changed when the capture was accepted: products by GTIN (EPCClass vocabulary), locations by GLN ' +
        '(BusinessLocation and ReadPoint vocabularies, CBV address attributes and GDST vessel attributes). Only what changed is listed.',
      required: ['products', 'locations'],
      properties: {
        products: masterDataChanges('GTIN'),
        locations: masterDataChanges('GLN (with /254/extension for a sub-location)'),
      },
    },
  },
} as const;

/** The capture body as published: GS1's JSON Schema (bundled with the service) is what validates it. */
export const epcisDocumentBody = {
  type: 'object',
  description:
    'An EPCISDocument (or EPCISQueryDocument) as GS1 EPCIS 2.0 JSON/JSON-LD. The service validates it against GS1’s EPCIS 2.0 JSON Schema; ' +
    'a failure is a 400 epcisException:ValidationException whose `errors` are keyed by the JSON pointer of each offending value.',
  required: ['type'],
  properties: { type: { type: 'string', enum: ['EPCISDocument', 'EPCISQueryDocument'] } },
} as const;

/** The body beside a Location header: the new resource's id, and that URL again. */
const located = (id: string, what: string) => ({
  type: 'object',
  required: [id, 'location'],
  properties: {
    [id]: { type: 'string' },
    location: { type: 'string', description: `${what}: the same URL as the Location header.` },
  },
});

export const captureAcceptedResponse = located('captureID', 'The capture job');

// A query string's bound, as every other route's: the request line must stay within Node's 16 KB of headers.
const list = (description: string, example?: string) => ({
  type: 'string',
  minLength: 1,
  maxLength: LIMITS.textLength,
  description: `${description} Several values: separated by |.`,
  ...(example ? { example } : {}),
});
const quantity = (comparison: string) => ({
  type: 'string',
  pattern: '^-?[0-9]{1,15}(\\.[0-9]{1,6})?$',
  description: `Only events with a quantity element (in any quantity list) whose quantity is ${comparison} this number.`,
  example: '10',
});
const time = (description: string) => ({ type: 'string', format: 'date-time', description });

/** The query parameters of GET /epcis/events (the standard's names); any other is a 400 naming it. */
export const eventsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    eventType: list(
      'Only events of these types (ObjectEvent, AggregationEvent, TransactionEvent, TransformationEvent, AssociationEvent).',
      'ObjectEvent',
    ),
    GE_eventTime: time('Only events with eventTime at or after this.'),
    GT_eventTime: time('Only events with eventTime after this (beyond the standard, as clients send it).'),
    LE_eventTime: time('Only events with eventTime at or before this (beyond the standard, as clients send it).'),
    LT_eventTime: time('Only events with eventTime before this.'),
    GE_recordTime: time(
      'Only events recorded at or after this (recordTime compares to the millisecond, as it is answered).',
    ),
    GT_recordTime: time('Only events recorded after this (beyond the standard).'),
    LE_recordTime: time('Only events recorded at or before this (beyond the standard).'),
    LT_recordTime: time('Only events recorded before this.'),
    EQ_action: list('Only events with one of these actions (ADD, OBSERVE, DELETE).', 'ADD'),
    EQ_bizStep: list(
      'Only events with one of these business steps (CBV bare words such as shipping, or URIs).',
      'shipping',
    ),
    EQ_disposition: list('Only events with one of these dispositions.', 'in_transit'),
    EQ_readPoint: list('Only events at one of these read points (SGLN URN or Digital Link: either form matches both).'),
    EQ_bizLocation: list('Only events at one of these business locations (SGLN URN or Digital Link).'),
    WD_readPoint: list(
      'Only events at one of these read points or their descendants. The service keeps no location hierarchy, so this filters as EQ_readPoint does.',
    ),
    WD_bizLocation: list(
      'Only events at one of these business locations or their descendants. The service keeps no location hierarchy, so this filters as EQ_bizLocation does.',
    ),
    EQ_eventID: list(
      'Only the events with these eventIDs, or these CBV 2.0 event hash ids (ni:///sha-256;…?ver=CBV2.0) whatever eventID they were captured with.',
    ),
    EQ_transformationID: list('Only TransformationEvents with one of these transformationIDs.'),
    EXISTS_errorDeclaration: {
      type: 'string',
      enum: ['true', 'false'],
      description: 'true: only events declared erroneous (an error declaration was captured for them).',
    },
    EQ_errorReason: list(
      'Only events declared erroneous for one of these reasons (did_not_occur, incorrect_data, or URIs).',
    ),
    EQ_correctiveEventID: list('Only events whose error declaration names one of these corrective events.'),
    EQ_persistentDisposition_set: list(
      'Only events whose persistentDisposition sets one of these dispositions (CBV bare words or URIs).',
      'completeness_verified',
    ),
    EQ_persistentDisposition_unset: list('Only events whose persistentDisposition unsets one of these dispositions.'),
    EQ_quantity: quantity('equal to'),
    GT_quantity: quantity('greater than'),
    GE_quantity: quantity('at least'),
    LT_quantity: quantity('less than'),
    LE_quantity: quantity('at most'),
    MATCH_epc: list(
      'Only events whose epcList or childEPCs hold one of these EPCs (EPC URN or Digital Link) or an EPC matching one of these EPC pattern URIs (urn:epc:idpat:sgtin:4012345.*.*).',
    ),
    MATCH_parentID: list('Only events with one of these parentIDs.'),
    MATCH_inputEPC: list('Only events whose inputEPCList holds one of these EPCs.'),
    MATCH_outputEPC: list('Only events whose outputEPCList holds one of these EPCs.'),
    MATCH_anyEPC: list(
      'Only events naming one of these EPCs anywhere (epcList, childEPCs, inputs, outputs, parentID).',
    ),
    MATCH_epcClass: list(
      'Only events whose quantityList or childQuantityList names one of these classes (LGTIN, GTIN pattern, Digital Link).',
    ),
    MATCH_inputEPCClass: list('Only events whose inputQuantityList names one of these classes.'),
    MATCH_outputEPCClass: list('Only events whose outputQuantityList names one of these classes.'),
    MATCH_anyEPCClass: list('Only events naming one of these classes in any quantity list.'),
    ...eventsPageQueryProperties,
  },
} as const;

export type EventsQuery = { [K in keyof (typeof eventsQuery)['properties']]?: string };

/** An EPCISQueryDocument as we answer it; GS1's JSON Schema is what it is valid against. */
export const queryDocumentResponse = {
  type: 'object',
  required: ['@context', 'type', 'schemaVersion', 'creationDate', 'epcisBody'],
  properties: {
    '@context': { type: 'array' },
    type: { const: 'EPCISQueryDocument' },
    schemaVersion: { const: '2.0' },
    creationDate: { type: 'string', format: 'date-time' },
    epcisBody: {
      type: 'object',
      required: ['queryResults'],
      properties: {
        queryResults: {
          type: 'object',
          required: ['queryName', 'resultsBody'],
          properties: {
            queryName: { type: 'string' },
            resultsBody: {
              type: 'object',
              required: ['eventList'],
              properties: {
                eventList: {
                  type: 'array',
                  items: { type: 'object', required: ['type', 'eventTime', 'eventTimeZoneOffset'] },
                },
              },
            },
          },
        },
      },
    },
  },
} as const;

export { EPC_FORMATS, type EpcFormat };

export const epcFormatHeader = {
  type: 'object',
  properties: {
    'GS1-EPC-Format': {
      type: 'string',
      enum: EPC_FORMATS,
      description:
        'Absent, Always_GS1_Digital_Link (the standard’s default): EPC URNs are answered as Digital Link URIs. No_Preference and Never_Translates answer identifiers as captured. ' +
        'Always_EPC_URN answers Digital Links as EPC URNs where the company prefix is known from a URN of the same company (in the answer or among the account’s captured events); ' +
        'a Digital Link does not say where its company prefix ends, so any other is answered as captured. ' +
        'The value is taken in any letter case (ALWAYS_EPC_URN) and answered in the standard’s spelling in the GS1-EPC-Format response header.',
    },
    'GS1-CBV-XML-Format': {
      type: 'string',
      enum: CBV_FORMATS,
      description:
        'Always_URN, Always_Web_URI or Never_Translates, in any letter case; the response header names the standard’s spelling. It governs CBV values in XML: ' +
        'GS1’s JSON/JSON-LD binding spells CBV terms as bare words (shipping) whatever it says, so JSON answers keep them so.',
    },
  },
} as const;

export const eventCreatedResponse = located('eventID', 'The event');

/** The standard's Collection: the members of a top-level resource, or a value's sub-resources. */
export const collectionResponse = {
  type: 'object',
  required: ['@context', 'type', 'member'],
  properties: {
    '@context': { type: 'array' },
    type: { const: 'Collection' },
    member: { type: 'array', items: { type: 'string' } },
  },
} as const;
