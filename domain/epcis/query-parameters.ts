/**
 * The query parameters of GS1's EPCIS 2.0 SimpleEventQuery, by their standard names, as schemas of their
 * string values: what GET /epcis/events takes beside its paging, and what a named query may hold (its
 * subscriptions run it in the worker). Several values of one parameter are separated by |.
 */
import { LIMITS } from '../schemas/limits';
import type { Namespaces } from './event-hash';

/** The schemas of the parameters that take several values. */
const LISTS = new WeakSet<object>();
const list = (description: string, example?: string, pattern?: string) => {
  const schema = {
    type: 'string',
    minLength: 1,
    maxLength: LIMITS.queryListLength,
    description: `${description} Several values: separated by |.`,
    ...(example ? { example } : {}),
    ...(pattern ? { pattern } : {}),
  };
  LISTS.add(schema);
  return schema;
};
const time = (description: string) => ({ type: 'string', format: 'date-time', description });
const flag = (description: string) => ({ type: 'string', enum: ['true', 'false'], description }) as const;
const NUMBER = '-?[0-9]{1,15}(\\.[0-9]{1,6})?';
const number = (description: string, example = '4') => ({
  type: 'string',
  pattern: `^${NUMBER}$`,
  description,
  example,
});
const quantity = (comparison: string) =>
  number(
    `Only events with a quantity element (in any quantity list) whose quantity is ${comparison} this number.`,
    '10',
  );

/** The times of a sensor element GS1's parameters compare: its metadata's (or a report's) time, its metadata's start and end. */
export const SENSOR_TIME_FIELDS = ['time', 'startTime', 'endTime'] as const;
export type SensorTimeField = (typeof SENSOR_TIME_FIELDS)[number];
const SENSOR_TIMES = {
  time: 'a sensor element whose metadata, or one of whose reports, has a time',
  startTime: 'a sensor element whose metadata has a startTime',
  endTime: 'a sensor element whose metadata has an endTime',
} satisfies Record<SensorTimeField, string>;
const SENSOR_TIME_COMPARISONS = { GE: 'at or after', GT: 'after', LE: 'at or before', LT: 'before' } as const;

/**
 * A sensor report's (or its element's metadata's) identifiers and values GS1's EQ_ parameters compare:
 * where each is looked for, a report or the metadata.
 */
export const SENSOR_TEXT_FIELDS = {
  type: ['report'],
  deviceID: ['metadata', 'report'],
  dataProcessingMethod: ['metadata', 'report'],
  microorganism: ['report'],
  chemicalSubstance: ['report'],
  bizRules: ['metadata', 'report'],
  stringValue: ['report'],
  hexBinaryValue: ['report'],
  uriValue: ['report'],
} as const satisfies Record<string, readonly ('metadata' | 'report')[]>;
export type SensorTextField = keyof typeof SENSOR_TEXT_FIELDS;

/** GS1's sensor parameters of fixed names (the values compared in a unit are SENSOR_VALUE_PARAMETER). */
const SENSOR_QUERY_PARAMETERS = {
  EXISTS_sensorElementList: flag('true: only events with sensor data (a sensorElementList).'),
  ...(Object.fromEntries(
    SENSOR_TIME_FIELDS.flatMap((field) =>
      Object.entries(SENSOR_TIME_COMPARISONS).map(([comparison, words]) => [
        `${comparison}_${field}`,
        time(`Only events with ${SENSOR_TIMES[field]} ${words} this.`),
      ]),
    ),
  ) as Record<`${keyof typeof SENSOR_TIME_COMPARISONS}_${SensorTimeField}`, ReturnType<typeof time>>),
  EQ_type: list(
    'Only events with a sensor report of one of these types (GS1 measurement types such as Temperature, as a word, gs1:Temperature or its URI; other types as sent).',
    'Temperature',
  ),
  EQ_deviceID: list('Only events with a sensor (its metadata or a report) naming one of these devices.'),
  EQ_dataProcessingMethod: list('Only events with a sensor (its metadata or a report) naming one of these methods.'),
  EQ_microorganism: list('Only events with a sensor report on one of these microorganisms.'),
  EQ_chemicalSubstance: list('Only events with a sensor report on one of these chemical substances.'),
  EQ_bizRules: list('Only events with a sensor (its metadata or a report) naming one of these business rules.'),
  EQ_stringValue: list('Only events with a sensor report of one of these string values.'),
  EQ_hexBinaryValue: list(
    'Only events with a sensor report of one of these hex binary values (in either letter case).',
  ),
  EQ_uriValue: list('Only events with a sensor report of one of these URI values.'),
  EQ_booleanValue: flag('Only events with a sensor report of this boolean value.'),
  GE_percRank: number('Only events with a sensor report whose percRank is at least this.'),
  GT_percRank: number('Only events with a sensor report whose percRank is greater than this.'),
  LE_percRank: number('Only events with a sensor report whose percRank is at most this.'),
  LT_percRank: number('Only events with a sensor report whose percRank is less than this.'),
};

export const EPCIS_QUERY_PARAMETERS = {
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
  GE_errorDeclarationTime: time('Only events declared erroneous, at or after this (their declarationTime).'),
  GT_errorDeclarationTime: time('Only events declared erroneous after this (beyond the standard).'),
  LE_errorDeclarationTime: time('Only events declared erroneous at or before this (beyond the standard).'),
  LT_errorDeclarationTime: time('Only events declared erroneous before this.'),
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
  EXISTS_errorDeclaration: flag('true: only events declared erroneous (an error declaration was captured for them).'),
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
  MATCH_anyEPC: list('Only events naming one of these EPCs anywhere (epcList, childEPCs, inputs, outputs, parentID).'),
  MATCH_epcClass: list(
    'Only events whose quantityList or childQuantityList names one of these classes (LGTIN, GTIN pattern, Digital Link).',
  ),
  MATCH_inputEPCClass: list('Only events whose inputQuantityList names one of these classes.'),
  MATCH_outputEPCClass: list('Only events whose outputQuantityList names one of these classes.'),
  MATCH_anyEPCClass: list('Only events naming one of these classes in any quantity list.'),
  ...SENSOR_QUERY_PARAMETERS,
} as const;

/** A sensor report's numbers GS1's parameters compare in a unit (`GT_maxValue_CEL`). */
export const SENSOR_NUMBER_FIELDS = ['value', 'minValue', 'maxValue', 'meanValue', 'sDev', 'percValue'] as const;
export type SensorNumberField = (typeof SENSOR_NUMBER_FIELDS)[number];
/** `<comparison>_<field>_<unit>`: the unit a UN/CEFACT Rec 20 code, in any letter case. */
const UNIT = '[A-Za-z0-9]{2,4}';
const NUMBER_COMPARISONS = ['EQ', 'GT', 'GE', 'LT', 'LE'] as const;
const unitPattern = (comparisons: readonly string[], fields: readonly string[]) =>
  `^(${comparisons.join('|')})_(${fields.join('|')})_(${UNIT})$`;
export const SENSOR_VALUE_PARAMETER = new RegExp(unitPattern(NUMBER_COMPARISONS, SENSOR_NUMBER_FIELDS));
/** `<comparison>_quantity_<unit>`: a quantity element's quantity in a unit. */
export const QUANTITY_IN_UNIT_PARAMETER = new RegExp(unitPattern(NUMBER_COMPARISONS, ['quantity']));
const CONVERTED =
  'A mass, a volume, a temperature or a count is compared in any unit of its kind (KGM with LBR, CEL with FAH); other units as sent.';

/** EQ_ of one of `fields` in a unit (a list of numbers), and GT_, GE_, LT_ and LE_ (one number). */
const unitParameterSchemas = (fields: readonly string[], what: string) => ({
  [unitPattern(['EQ'], fields)]: list(
    `EQ_${fields[0]}_<unit> (KGM, CEL, ...): only events with ${what} in that unit is one of these numbers. ${CONVERTED}`,
    '4',
    `^${NUMBER}(\\|${NUMBER})*$`,
  ),
  [unitPattern(['GT', 'GE', 'LT', 'LE'], fields)]: number(
    `GT_${fields[0]}_<unit> and the like: only events with ${what} in that unit compares so with this number. ${CONVERTED}`,
  ),
});

/**
 * The parts of an event GS1's extension parameters look in, by the infix that names them
 * (`EQ_ILMD_<field>`); without one, the event itself.
 */
export const EXTENSION_AREAS = [
  'ILMD',
  'ERROR_DECLARATION',
  'SENSORELEMENT',
  'SENSORMETADATA',
  'SENSORREPORT',
  'readPoint',
  'bizLocation',
] as const;
export type ExtensionArea = (typeof EXTENSION_AREAS)[number] | 'event';
const EXTENSION_COMPARISONS = ['EQ', 'GT', 'GE', 'LT', 'LE', 'EXISTS'] as const;
export type ExtensionComparison = (typeof EXTENSION_COMPARISONS)[number];
/** A namespace prefix as JSON-LD and XML write one (GS1's own example has `example-epc-ext`), never with `_`. */
const PREFIX = '[A-Za-z][A-Za-z0-9.-]*';
/** An extension field's parameter: comparison, INNER_, area, then the field as `prefix:local`. */
const extensionPattern = (comparisons: readonly string[]) =>
  `^(${comparisons.join('|')})_(INNER_)?(?:(${EXTENSION_AREAS.join('|')})_)?(${PREFIX}):([A-Za-z0-9_][A-Za-z0-9_.-]*)$`;
export const EXTENSION_PARAMETER = new RegExp(extensionPattern(EXTENSION_COMPARISONS));
export type ExtensionParameterName = `${ExtensionComparison}_${string}:${string}`;
const EXTENSION_FIELD =
  'An extension field named prefix:local (EQ_ILMD_cbvmda:countryOfOrigin, GT_example:weight), the prefix as the GS1-Extensions header declares it (example=https://ns.example.com/epcis/), else as the events’ own documents do; INNER_ looks at any depth within a top-level extension field; ILMD_, ERROR_DECLARATION_, SENSORELEMENT_, SENSORMETADATA_, SENSORREPORT_, readPoint_ and bizLocation_ in that part of the event.';
const EXTENSION_PARAMETER_SCHEMAS = {
  [extensionPattern(['EQ'])]: list(
    `EQ_<field>: only events with the extension field equal to one of these (a number or a time compares as one). ${EXTENSION_FIELD}`,
  ),
  [extensionPattern(['GT', 'GE', 'LT', 'LE'])]: {
    type: 'string',
    minLength: 1,
    description: `GT_<field> and the like: only events with the extension field, a number or a time, comparing so with this number or date-time. ${EXTENSION_FIELD}`,
  },
  [extensionPattern(['EXISTS'])]: flag(
    `EXISTS_<field>=true: only events with the extension field, not empty. ${EXTENSION_FIELD}`,
  ),
};

const DECLARED_NAMESPACE = new RegExp(`^(${PREFIX})\\s*=\\s*(\\S+)$`);
/**
 * The namespaces a request's GS1-Extensions header declares, `prefix=IRI` separated by commas
 * (`example=https://ns.example.com/epcis/, ext2=urn:ext2`); undefined when one cannot be read.
 */
export function extensionNamespacesOf(header: string): Namespaces | undefined {
  const namespaces: Record<string, string> = {};
  for (const entry of header.split(/[,\n]/).map((e) => e.trim())) {
    if (!entry) continue;
    const declared = DECLARED_NAMESPACE.exec(entry);
    if (!declared) return undefined;
    namespaces[declared[1]] = declared[2];
  }
  return namespaces;
}

/**
 * GS1's parameters whose name ends with a type, a CBV word or a URI (`EQ_bizTransaction_po`,
 * `EQ_source_owning_party`): only events with an entry of that type whose identifier is one of the values;
 * and those whose name ends with a unit (`GT_maxValue_CEL`, `GE_quantity_KGM`): a sensor report's number or a
 * quantity compared in it.
 */
export const EPCIS_PATTERN_QUERY_PARAMETERS = {
  '^EQ_bizTransaction_.+$': list(
    'EQ_bizTransaction_<type> (po, inv, bol, desadv, ...): only events with a business transaction of that type whose identifier is one of these, as sent.',
  ),
  '^EQ_source_.+$': list(
    'EQ_source_<type> (owning_party, possessing_party, location): only events with a source of that type whose identifier is one of these (a GLN or PGLN as a URN or a Digital Link, whichever the event used).',
  ),
  '^EQ_destination_.+$': list(
    'EQ_destination_<type>: only events with a destination of that type whose identifier is one of these (a GLN or PGLN as a URN or a Digital Link, whichever the event used).',
  ),
  ...unitParameterSchemas(
    SENSOR_NUMBER_FIELDS,
    'a sensor report whose value (minValue, maxValue, meanValue, sDev, percValue)',
  ),
  ...unitParameterSchemas(['quantity'], 'a quantity element whose quantity'),
  ...EXTENSION_PARAMETER_SCHEMAS,
} as const;
const TYPED_LISTS = ['bizTransaction', 'source', 'destination'] as const;
export type TypedList = (typeof TYPED_LISTS)[number];
/** A typed parameter's name: its list and its type. */
export const TYPED_PARAMETER = new RegExp(`^EQ_(${TYPED_LISTS.join('|')})_(.+)$`);
export type TypedParameterName = `EQ_${TypedList}_${string}`;

type QuantityComparisonName = (typeof NUMBER_COMPARISONS)[number];
export type SensorValueParameterName = `${QuantityComparisonName}_${SensorNumberField}_${string}`;
export type QuantityInUnitParameterName = `${QuantityComparisonName}_quantity_${string}`;

/** A query's parameters as sent: each a string, absent when not given. */
export type EpcisQueryParameters = { [K in keyof typeof EPCIS_QUERY_PARAMETERS]?: string } & {
  [K in TypedParameterName | SensorValueParameterName | QuantityInUnitParameterName | ExtensionParameterName]?: string;
};

const count = (description: string) =>
  ({ type: 'string', pattern: '^[1-9][0-9]{0,8}$', description, example: '100' }) as const;

/**
 * GS1's parameters of a result's order and size. GET /epcis/events takes them; a named query does not, as
 * its subscriptions report each batch's events as they were recorded.
 */
export const EPCIS_ORDER_PARAMETERS = {
  orderBy: {
    type: 'string',
    enum: ['eventTime', 'recordTime'],
    description: 'Orders the events by this field (not by an extension field); without it, oldest recorded first.',
  },
  orderDirection: {
    type: 'string',
    enum: ['ASC', 'DESC'],
    description: 'With orderBy: ASC or DESC (the default, as GS1 says), in any letter case.',
  },
  eventCountLimit: count('Only the first this many events in orderBy order (which it needs), over every page.'),
  maxEventCount: count('A 413 QueryTooLargeException instead of the events when more than this many match.'),
} as const;

export interface EpcisOrderParameters {
  orderBy?: (typeof EPCIS_ORDER_PARAMETERS.orderBy.enum)[number];
  orderDirection?: (typeof EPCIS_ORDER_PARAMETERS.orderDirection.enum)[number];
  eventCountLimit?: string;
  maxEventCount?: string;
}

const PATTERNS = Object.entries(EPCIS_PATTERN_QUERY_PARAMETERS).map(([pattern, schema]) => ({
  pattern: new RegExp(pattern),
  schema,
}));
/** A parameter's schema, by its name or the pattern it matches. */
function schemaOf(name: string): object | undefined {
  const schemas: Record<string, object | undefined> = EPCIS_QUERY_PARAMETERS;
  return schemas[name] ?? PATTERNS.find(({ pattern }) => pattern.test(name))?.schema;
}

/** A date-time whose offset's + was not percent-encoded, read as a space (`…T18:00:00 01:00`), with its + back. */
export const withOffsetPlus = (value: string): string => value.replace(/(T[0-9:.]+) ([0-9]{2}(:?[0-9]{2})?)$/, '$1+$2');

/** A query string as read: a parameter sent more than once is a list of its values. */
type QueryString = Record<string, string | string[] | undefined>;

/**
 * The query forms real clients send beside GS1's: a list parameter repeated (`EQ_bizStep=a&EQ_bizStep=b`,
 * OpenAPI's default form of an array, where GS1's REST binding has it pipe-delimited) is the list `a|b`, and a
 * time whose offset's + was not encoded, so that it reads as a space (`2024-03-01T18:00:00 01:00`), has its +
 * back; an orderDirection is read in upper case. Anything else is left as sent, for the schema to judge: one
 * value of any other parameter sent twice is still refused.
 */
export function lenientQuery(query: Readonly<QueryString>): QueryString {
  const out: QueryString = { ...query };
  if (typeof query.orderDirection === 'string') out.orderDirection = query.orderDirection.toUpperCase();
  for (const [name, value] of Object.entries(query)) {
    const schema = schemaOf(name);
    if (Array.isArray(value) && schema && LISTS.has(schema)) out[name] = value.join('|');
    else if (typeof value === 'string' && schema && 'format' in schema && schema.format === 'date-time')
      out[name] = withOffsetPlus(value);
  }
  return out;
}
