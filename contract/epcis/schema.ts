/**
 * The schemas of the requests and answers under /epcis; what an EPCIS document must be is GS1's schema
 * (domain/epcis/json-schema.ts).
 */
import type { FromSchema } from 'json-schema-to-ts';
import { allRequired, listOf, requiredObject } from '../openapi/schema';
import { EPC_FORMATS } from '../../domain/epcis/identifiers';
import { CBV_FORMATS } from '../../domain/epcis/cbv-forms';
import {
  EPCIS_ORDER_PARAMETERS,
  EPCIS_QUERY_PARAMETERS,
  EPCIS_PATTERN_QUERY_PARAMETERS,
  type EpcisOrderParameters,
  type EpcisQueryParameters,
} from '../../domain/epcis/query-parameters';
import { CAPTURE_ERROR_BEHAVIOURS } from '../../domain/epcis/translate';
import { pairedWith } from '../../domain/schemas/paired';

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
  maxLength: 200,
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

export type PageQuery = FromSchema<typeof pageQuery>;

export const perPageOf = (query: PageQuery): number =>
  Math.min(MAX_PER_PAGE, query.perPage ? Number(query.perPage) : DEFAULT_PER_PAGE);

/**
 * A page of events holds the most a page holds unless perPage says less: a traceback step of a client
 * that never follows Link rel="next" (GDST's reference client) then loses nothing below that.
 */
export const eventsPerPageOf = (query: PageQuery): number =>
  Math.min(MAX_PER_PAGE, query.perPage ? Number(query.perPage) : MAX_PER_PAGE);

/** A capture job's path id: anything but a UUID names no job (404, as an unknown one). */
export const captureIdParams = requiredObject({
  captureID: {
    type: 'string',
    pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
    description: 'The captureID of the 202 answer (its Location).',
  },
});

/** perPage and nextPageToken alone: the capture jobs and the top-level resources. */
export const pageQuery = { type: 'object', additionalProperties: false, properties: pageQueryProperties } as const;
export const eventsPageQuery = {
  type: 'object',
  additionalProperties: false,
  properties: eventsPageQueryProperties,
} as const;

/** A capture job warning's title says its kind; what it is about is in its detail and its other members. */
export const WARNING_TITLES = {
  NegativeInventory: 'A lot this capture took from reads negative.',
  MissingGdstKde: 'An event lacks a Key Data Element that GDST 1.2 asks for.',
  FieldLeftOut: 'A field of the XML was left out of the captured event.',
} as const;

const problemList = listOf(['type', 'title', 'detail', 'code'], {
  type: { type: 'string' },
  title: { type: 'string', description: 'The kind of problem: the same text for every event refused alike.' },
  status: { type: 'integer' },
  detail: { type: 'string', description: 'Why this event was refused, and the fix.' },
  code: {
    type: 'string',
    description: 'The stable id of the problem, as the batch endpoint names it.',
    example: 'DuplicateEventId',
  },
  field: { type: 'string', description: 'The field of the event at fault, where there is one.', example: 'eventID' },
  eventID: { type: 'string' },
});

const masterDataChanges = (key: string) =>
  listOf(['id', 'key', 'change', 'fields'], {
    id: { type: 'string', description: 'Its id in this account (a Digital Link URI for one the capture created).' },
    key: { type: 'string', description: `The ${key} the document named it by.` },
    change: { enum: ['created', 'updated'] },
    fields: {
      type: 'array',
      items: { type: 'string' },
      description: 'The fields the document set: name, address, vessel, captainsName.',
    },
  });

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
          requiredObject({
            type: { const: 'NegativeInventory' },
            title: { const: WARNING_TITLES.NegativeInventory },
            detail: { type: 'string' },
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
          }),
          requiredObject({
            type: { enum: ['MissingGdstKde', 'FieldLeftOut'] },
            index: { type: 'integer', description: 'The event’s index in the document.' },
            eventID: { type: 'string' },
            pointer: {
              type: 'string',
              description: 'JSON pointer of the missing KDE in the captured document (FieldLeftOut: the XML element).',
              example: '/epcisBody/eventList/0/gdst:productOwner',
            },
            title: {
              type: 'string',
              description: 'The kind of warning: the same text for every warning of its type.',
            },
            detail: { type: 'string', description: 'What is missing or was left out, and where.' },
          }),
        ],
      },
    },
    createdMasterData: {
      type: 'object',
      description:
        'Products (by GTIN) and locations (by GLN or URI) the account did not have when the capture was accepted: the capture creates them.',
      ...allRequired({
        products: { type: 'array', items: { type: 'string' } },
        locations: { type: 'array', items: { type: 'string' } },
      }),
    },
    masterData: {
      type: 'object',
      description:
        'What the document’s epcisHeader.epcisMasterData created or changed when the capture was accepted: products by GTIN (EPCClass vocabulary), locations by GLN ' +
        '(BusinessLocation and ReadPoint vocabularies, CBV address attributes and GDST vessel attributes). Only what changed is listed.',
      ...allRequired({
        products: masterDataChanges('GTIN'),
        locations: masterDataChanges('GLN (with /254/extension for a sub-location)'),
      }),
    },
  },
} as const;

/** The capture body as published: GS1's JSON Schema (bundled with the service) is what validates it. */
export const epcisDocumentBody = {
  type: 'object',
  description:
    'An EPCISDocument (or EPCISQueryDocument) as GS1 EPCIS 2.0 JSON/JSON-LD. The service validates it against GS1’s EPCIS 2.0 JSON Schema; ' +
    'a failure is a 400 epcisException:ValidationException whose `errors` are keyed by the JSON pointer of each offending value.',
  ...allRequired({ type: { type: 'string', enum: ['EPCISDocument', 'EPCISQueryDocument'] } }),
} as const;

/** The body beside a Location header: the new resource's id, and that URL again. */
const located = (id: string, what: string) =>
  requiredObject({
    [id]: { type: 'string' },
    location: { type: 'string', description: `${what}: the same URL as the Location header.` },
  });

export const captureAcceptedResponse = located('captureID', 'The capture job');

export type EventsQuery = EpcisQueryParameters & EpcisOrderParameters & PageQuery;

/**
 * The query parameters of GET /epcis/events (the standard's names) and its paging; any other is a 400
 * naming it. Paired with its type: FromSchema does not read the parameters' schemas, built by functions.
 */
export const eventsQuery = pairedWith<EventsQuery>()({
  type: 'object',
  additionalProperties: false,
  properties: { ...EPCIS_QUERY_PARAMETERS, ...EPCIS_ORDER_PARAMETERS, ...eventsPageQueryProperties },
  patternProperties: EPCIS_PATTERN_QUERY_PARAMETERS,
} as const);

/** An EPCISQueryDocument as we answer it; GS1's JSON Schema is what it is valid against. */
export const queryDocumentResponse = requiredObject({
  '@context': { type: 'array' },
  type: { const: 'EPCISQueryDocument' },
  schemaVersion: { const: '2.0' },
  creationDate: { type: 'string', format: 'date-time' },
  epcisBody: requiredObject({
    queryResults: requiredObject({
      queryName: { type: 'string' },
      resultsBody: requiredObject({
        eventList: {
          type: 'array',
          items: { type: 'object', required: ['type', 'eventTime', 'eventTimeZoneOffset'] },
        },
      }),
    }),
  }),
});

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
export const collectionResponse = requiredObject({
  '@context': { type: 'array' },
  type: { const: 'Collection' },
  member: { type: 'array', items: { type: 'string' } },
});

/**
 * The standard's top-level resources: what the account's events name (event types, business steps,
 * business locations, read points, dispositions, EPCs), each value's sub-resources, and its events.
 */
export interface TopLevelResourcePath {
  /** The path segment: /epcis/{name}. */
  name: 'eventTypes' | 'bizSteps' | 'bizLocations' | 'readPoints' | 'dispositions' | 'epcs';
  /** The path parameter of one value: /epcis/{name}/{param}. */
  param: string;
  what: string;
}

export const TOP_LEVEL_RESOURCE_PATHS: readonly TopLevelResourcePath[] = [
  { name: 'eventTypes', param: 'eventType', what: 'event types' },
  { name: 'bizSteps', param: 'bizStep', what: 'business steps' },
  { name: 'bizLocations', param: 'bizLocation', what: 'business locations' },
  { name: 'readPoints', param: 'readPoint', what: 'read points' },
  { name: 'dispositions', param: 'disposition', what: 'dispositions' },
  { name: 'epcs', param: 'epc', what: 'EPCs' },
];
