import { preferWaitHeader, problemResponse } from '../openapi/components';
import { taggedOperation, type ResponseSpec } from '../openapi/operation';
import {
  captureHeaders,
  captureIdParams,
  collectionResponse,
  captureAcceptedResponse,
  captureJobResponse,
  pageQuery,
  epcFormatHeader,
  epcisDocumentBody,
  eventCreatedResponse,
  eventsQuery,
  queryDocumentResponse,
  TOP_LEVEL_RESOURCE_PATHS,
} from './schema';

const operation = taggedOperation('EPCIS');

const DOCUMENT_EXAMPLE = {
  '@context': ['https://ref.gs1.org/standards/epcis/2.0.0/epcis-context.jsonld'],
  type: 'EPCISDocument',
  schemaVersion: '2.0',
  creationDate: '2024-03-01T15:00:00Z',
  epcisBody: {
    eventList: [
      {
        type: 'ObjectEvent',
        eventID: 'urn:uuid:6f1c2b4e-0a7d-4e8b-9c3f-1d2e3f4a5b6c',
        eventTime: '2024-03-01T10:00:00-05:00',
        eventTimeZoneOffset: '-05:00',
        action: 'ADD',
        bizStep: 'commissioning',
        disposition: 'active',
        quantityList: [{ epcClass: 'urn:epc:class:lgtin:4012345.012345.LOT-2024-001', quantity: 1200, uom: 'KGM' }],
        readPoint: { id: 'urn:epc:id:sgln:4012345.00001.0' },
      },
    ],
  },
};

const XML_EXAMPLE = `<?xml version="1.0" encoding="UTF-8"?>
<epcis:EPCISDocument xmlns:epcis="urn:epcglobal:epcis:xsd:2" schemaVersion="2.0" creationDate="2024-03-01T15:00:00Z">
  <EPCISBody>
    <EventList>
      <ObjectEvent>
        <eventTime>2024-03-01T10:00:00-05:00</eventTime>
        <eventTimeZoneOffset>-05:00</eventTimeZoneOffset>
        <eventID>urn:uuid:6f1c2b4e-0a7d-4e8b-9c3f-1d2e3f4a5b6c</eventID>
        <epcList/>
        <action>ADD</action>
        <bizStep>urn:epcglobal:cbv:bizstep:commissioning</bizStep>
        <disposition>urn:epcglobal:cbv:disp:active</disposition>
        <readPoint><id>urn:epc:id:sgln:4012345.00001.0</id></readPoint>
        <quantityList>
          <quantityElement><epcClass>urn:epc:class:lgtin:4012345.012345.LOT-2024-001</epcClass><quantity>1200</quantity><uom>KGM</uom></quantityElement>
        </quantityList>
      </ObjectEvent>
    </EventList>
  </EPCISBody>
</epcis:EPCISDocument>`;

/** The XML a capture takes, under both media types clients send it as. */
const xmlBodies = (what: string) =>
  (['application/xml', 'text/xml'] as const).map((contentType) => ({
    contentType,
    schema: {
      type: 'string',
      description: `${what} in EPCIS 2.0 XML (urn:epcglobal:epcis:xsd:2) or EPCIS 1.2 XML (urn:epcglobal:epcis:xsd:1), valid against GS1’s XSD of its version. No DTD (a DOCTYPE naming only the root is ignored), no entities.`,
    },
    example: XML_EXAMPLE,
  }));

const xmlHeaders = {
  type: 'object',
  properties: {
    ...epcFormatHeader.properties,
    'GS1-CBV-XML-Format': {
      type: 'string',
      description:
        'XML answers only (the JSON-LD binding always names CBV terms by their bare word): No_Preference (default) and Always_URN answer CBV values as URNs (urn:epcglobal:cbv:bizstep:shipping), Always_Web_URI as Web URIs (https://ref.gs1.org/cbv/BizStep-shipping), Never_Translates keeps a URI as captured (a bare word as its URN). Any letter case; another value is a 400.',
    },
    'GS1-EPCIS-Version': {
      type: 'string',
      description:
        'With Accept: application/xml, `1.2` answers EPCIS 1.2 XML (urn:epcglobal:epcis:xsd:1, valid against GS1’s 1.2 query XSD) for 1.2 tooling; anything else 2.0.',
    },
  },
};

/** An EPCISQueryDocument in XML, for Accept: application/xml (or text/xml). */
const xmlQueryDocument = (json: ResponseSpec): ResponseSpec[] => [
  json,
  {
    description:
      'With Accept: application/xml (or text/xml): the same EPCISQueryDocument in EPCIS 2.0 XML, valid against GS1’s query XSD (1.2 XML when GS1-EPCIS-Version: 1.2 is asked).',
    contentType: ['application/xml', 'text/xml'],
    schema: { type: 'string' },
  },
];

const queryTooLarge = problemResponse(
  'More events match the query than its maxEventCount (epcisException:QueryTooLargeException).',
  'epcis-query-too-large',
);

const epcisHeaders =
  'Every /epcis answer carries GS1-EPCIS-Version and GS1-CBV-Version (2.0.0; an EPCIS 1.2 XML answer says GS1-EPCIS-Version 1.2.0).';

export const epcisOperations = [
  operation({
    method: 'post',
    path: '/epcis/capture',
    summary: 'Capture an EPCIS 2.0 document (asynchronous capture job)',
    description: [
      'Validates the document against GS1’s EPCIS 2.0 JSON Schema and the rules it cannot state (event times, eventIDs repeated in the document), then answers 202 with `Location: /epcis/capture/{captureID}`.',
      'The capture job is one processEventBatch workflow (mode `epcis`) of the event pipeline: captured events land in the same events, inventory and ledger as /Integration/Events.',
      '`GS1-Capture-Error-Behaviour`: `rollback` (default, all or nothing) or `proceed` (events whose eventID the account already has are reported in the job and left out).',
      'Every event gets its CBV 2.0 event hash id (`ni:///sha-256;…?ver=CBV2.0`); one sent without an eventID gets it as its eventID. An event whose hash id the account already holds (the same event resent under another eventID, or none) is a duplicate: a 400 naming it under `rollback`, left out and reported in the job under `proceed`.',
      'An error declaration of an event the account does not hold is kept (queryable with EXISTS_errorDeclaration) and applied when that event arrives.',
      '`epcisHeader.epcisMasterData` creates or updates the account’s products (EPCClass vocabulary, by GTIN) and locations (BusinessLocation and ReadPoint, by GLN; CBV address and GDST vessel attributes) once the document has passed every check; the capture job’s `masterData` lists what changed.',
      '`OPTIONS /epcis/capture` answers 204 with the limits `GS1-EPCIS-Capture-Limit` (events) and `GS1-EPCIS-Capture-File-Size-Limit` (bytes); a larger document is a 413.',
      'Both `application/ld+json` and `application/json` are taken, and EPCIS XML (2.0 or 1.2) as `application/xml` or `text/xml`: checked against GS1’s XSD of its version, then read by GS1’s mapping between the two bindings into the JSON-LD document the JSON path captures (same checks, jobs and limits; an XML capture is answered as JSON-LD and as XML alike). Errors in XML name the element by an XPath-like location and its line. Another media type is a 415.',
      epcisHeaders,
    ].join(' '),
    headers: captureHeaders,
    requestBody: {
      schema: epcisDocumentBody,
      example: DOCUMENT_EXAMPLE,
      alternatives: xmlBodies('An EPCISDocument (or EPCISQueryDocument)'),
    },
    responses: {
      202: {
        description: 'The capture job was created; its URL is in the Location header (and in the body).',
        schema: captureAcceptedResponse,
      },
      400: problemResponse(
        'The document is not valid EPCIS 2.0 (epcisException:ValidationException, `errors` keyed by JSON pointer, or in XML by the element’s XPath-like location: malformed XML, another namespace, an XSD violation, a DTD or entity); nothing was captured.',
      ),
      413: problemResponse(
        'More events than GS1-EPCIS-Capture-Limit (epcisException:CaptureLimitExceededException), or a body over GS1-EPCIS-Capture-File-Size-Limit.',
      ),
    },
  }),
  operation({
    method: 'get',
    path: '/epcis/capture',
    summary: 'List the account’s capture jobs, oldest first',
    description: `Paged with perPage and nextPageToken; while there are more, the Link header names the next page (rel="next"). ${epcisHeaders}`,
    query: pageQuery,
    responses: {
      200: { description: 'Capture jobs.', schema: { type: 'array', items: captureJobResponse } },
      400: problemResponse('perPage or nextPageToken is not valid (epcisException:QueryParameterException).'),
    },
  }),
  operation({
    method: 'get',
    path: '/epcis/capture/{captureID}',
    summary: 'A capture job',
    description: `running, success and errors of one capture (the standard’s CaptureJob). With \`Prefer: wait=N\` (RFC 7240, read as this API’s long poll) a running job is answered once it has finished, or after at most N seconds (at most SYNC_WAIT_SECONDS, 30 by default), instead of at once: no polling, and \`Preference-Applied: wait=N\` names the longest wait applied. ${epcisHeaders}`,
    pathParams: captureIdParams,
    headers: preferWaitHeader,
    responses: {
      200: {
        description:
          'The capture job (still running when the wait ran out, or when none was applied: no Preference-Applied).',
        schema: captureJobResponse,
        headers: ['Preference-Applied'],
      },
      404: problemResponse(
        'No such capture job in this account (epcisException:NoSuchResourceException).',
        'epcis-unknown-capture-job',
      ),
    },
  }),

  operation({
    method: 'post',
    path: '/epcis/events',
    summary: 'Capture one EPCIS event and wait until it is stored',
    description: `One EPCIS 2.0 event with its @context (in XML: an EPCISDocument of exactly one event, 2.0 or 1.2), checked like a document’s events and run through the same pipeline (all or nothing). 201 with \`Location: /epcis/events/{eventID}\` once stored; 202 with the capture job when the pipeline takes longer than SYNC_WAIT_SECONDS. ${epcisHeaders}`,
    requestBody: {
      schema: { type: 'object', required: ['type'], properties: { type: { type: 'string' } } },
      example: { '@context': DOCUMENT_EXAMPLE['@context'], ...DOCUMENT_EXAMPLE.epcisBody.eventList[0] },
      alternatives: xmlBodies('An EPCISDocument of exactly one event'),
    },
    responses: {
      201: {
        description: 'The event is stored; its URL is in the Location header (and in the body).',
        schema: eventCreatedResponse,
      },
      202: {
        description: 'Still being captured; the capture job is in the Location header.',
        schema: captureAcceptedResponse,
      },
      400: problemResponse(
        'The event is not valid EPCIS 2.0 (or not valid XML, or an XML document of more than one event), or breaks a rule (its eventID already captured): nothing was stored.',
      ),
    },
  }),
  operation({
    method: 'get',
    path: '/epcis/events',
    summary: 'Query the account’s events (EPCIS 2.0 query parameters)',
    description: [
      'Every event of the account, captured through EPCIS or recorded through /Integration (our own types mapped to EPCIS as the README says), oldest recorded first.',
      'List values are separated by |; identifiers match in either EPC URN or Digital Link form. An unknown parameter is a 400 epcisException:QueryParameterException naming it.',
      'orderBy (eventTime or recordTime) and orderDirection order the events instead; eventCountLimit takes the first of them, and maxEventCount answers 413 when more match.',
      'Beside the parameters listed: EQ_bizTransaction_<type>, EQ_source_<type> and EQ_destination_<type> (po, owning_party, location, or a URI), each a list of identifiers.',
      'Paged with perPage (default 1000, the largest page: GS1’s binding says 30, but GDST’s reference client never follows Link rel="next") and nextPageToken; while there are more, the Link header names the next page (rel="next").',
      epcisHeaders,
    ].join(' '),
    query: eventsQuery,
    headers: xmlHeaders,
    responses: {
      200: xmlQueryDocument({
        description: 'An EPCISQueryDocument (valid against GS1’s EPCIS 2.0 JSON Schema).',
        schema: queryDocumentResponse,
      }),
      400: problemResponse(
        'A query parameter is unknown or not valid (epcisException:QueryParameterException), or GS1-EPC-Format or GS1-CBV-XML-Format is not valid (epcisException:ValidationException).',
      ),
      413: queryTooLarge,
    },
  }),
  operation({
    method: 'get',
    path: '/epcis/events/{eventID}',
    summary: 'One event by its eventID',
    description: `An EPCISQueryDocument with the event, as it was captured (our own events: urn:uuid:<id>, as the EPCIS view of them). ${epcisHeaders}`,
    headers: xmlHeaders,
    responses: {
      200: xmlQueryDocument({ description: 'The event.', schema: queryDocumentResponse }),
      400: problemResponse('GS1-EPC-Format or GS1-CBV-XML-Format is not valid.'),
      404: problemResponse(
        'No event with that eventID in this account (epcisException:NoSuchResourceException).',
        'epcis-unknown-event',
      ),
    },
  }),
  ...TOP_LEVEL_RESOURCE_PATHS.flatMap((resource) => [
    operation({
      method: 'get',
      path: `/epcis/${resource.name}`,
      summary: `The ${resource.what} the account’s events name`,
      description: `A Collection of ${resource.what}${resource.name === 'eventTypes' ? ' (the five EPCIS types)' : ', in one spelling (CBV bare words; GS1 keys as Digital Links)'}, paged with perPage and nextPageToken (Link rel="next"). ${epcisHeaders}`,
      query: pageQuery,
      responses: {
        200: { description: 'The collection.', schema: collectionResponse },
        400: problemResponse('perPage or nextPageToken is not valid (epcisException:QueryParameterException).'),
      },
    }),
    operation({
      method: 'get',
      path: `/epcis/${resource.name}/{${resource.param}}`,
      summary: `The sub-resources of one of the ${resource.what}`,
      description: `A Collection whose member is \`events\`. ${epcisHeaders}`,
      responses: {
        200: { description: 'The sub-resources.', schema: collectionResponse },
        404: problemResponse(
          'None of the account’s events names it (epcisException:NoSuchResourceException).',
          'epcis-unknown-resource',
        ),
      },
    }),
    operation({
      method: 'get',
      path: `/epcis/${resource.name}/{${resource.param}}/events`,
      summary: `The events of one of the ${resource.what}`,
      description: `GET /epcis/events with this value as a filter; takes the same query parameters. ${epcisHeaders}`,
      query: eventsQuery,
      headers: xmlHeaders,
      responses: {
        200: xmlQueryDocument({ description: 'An EPCISQueryDocument.', schema: queryDocumentResponse }),
        400: problemResponse(
          'A query parameter is unknown or not valid (epcisException:QueryParameterException), or GS1-EPC-Format or GS1-CBV-XML-Format is not valid (epcisException:ValidationException).',
        ),
        413: queryTooLarge,
      },
    }),
  ]),
];
