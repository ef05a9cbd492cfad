/**
 * An EPCIS query (GS1's SimpleEventQuery parameters) as a filter of an account's events: GET /epcis/events
 * asks it for one page, a named query stores it for its subscriptions to run. The parameters' schemas
 * are domain/epcis/query-parameters.ts.
 */
import {
  QUANTITY_COMPARISONS,
  TIME_COMPARISONS,
  type EpcisEventFilter,
  type EventOrder,
  type ExtensionCondition,
  type MatchKind,
  type QuantityComparison,
  type SensorCondition,
  type TimeComparison,
} from '../db/queries/epcis-events';
import {
  EXTENSION_PARAMETER,
  QUANTITY_IN_UNIT_PARAMETER,
  SENSOR_TEXT_FIELDS,
  SENSOR_TIME_FIELDS,
  SENSOR_VALUE_PARAMETER,
  TYPED_PARAMETER,
  withOffsetPlus,
  type EpcisOrderParameters,
  type EpcisQueryParameters,
  type ExtensionArea,
  type ExtensionComparison,
  type ExtensionParameterName,
  type QuantityInUnitParameterName,
  type SensorNumberField,
  type SensorTextField,
  type SensorValueParameterName,
  type TypedList,
  type TypedParameterName,
} from '../domain/epcis/query-parameters';
import { epcPatternOf } from '../domain/epcis/identifiers';
import { sensorTypeWord } from '../domain/epcis/xml/cbv';
import { GS1_NAMESPACES, namespaceSpellings, type Namespaces } from '../domain/epcis/event-hash';

/** A parameter whose value the schema let through but the query cannot use, with the pointer of each. */
export class EpcisQueryRefused extends Error {
  constructor(
    readonly code: 'epcis-invalid-query-parameters' | 'epcis-invalid-query-time' | 'epcis-unreadable-epc-pattern',
    readonly detail: string,
    readonly issues: { pointer: string; message: string }[],
  ) {
    super(detail);
  }
}

/**
 * A list parameter's values, blanks left out (`a||b`, `a|`); undefined when it is absent. One given with
 * no value at all (`|`, blanks) is refused: as no filter, it would answer every event, silently.
 */
function split(query: EpcisQueryParameters, name: keyof EpcisQueryParameters): string[] | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  const values = value
    .split('|')
    .map((v) => v.trim())
    .filter(Boolean);
  if (!values.length)
    throw new EpcisQueryRefused('epcis-invalid-query-parameters', `${name} holds no value.`, [
      { pointer: `/${name}`, message: `${name} holds no value: send one or more, separated by |.` },
    ]);
  return values;
}
/** A date-time the schema let through but a Date cannot hold (a leap second) is a 400 too, never a 500. */
function timeOf(query: EpcisQueryParameters, name: keyof EpcisQueryParameters): Date | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  const time = new Date(value);
  if (Number.isNaN(time.getTime()))
    throw new EpcisQueryRefused('epcis-invalid-query-time', `${name} is not a date-time this service can compare.`, [
      { pointer: `/${name}`, message: `${name} "${value}" is not a valid date-time.` },
    ]);
  return time;
}

const MATCH_PARAMS: [keyof EpcisQueryParameters, MatchKind][] = [
  ['MATCH_epc', 'epc'],
  ['MATCH_parentID', 'parentID'],
  ['MATCH_inputEPC', 'inputEPC'],
  ['MATCH_outputEPC', 'outputEPC'],
  ['MATCH_anyEPC', 'anyEPC'],
  ['MATCH_epcClass', 'epcClass'],
  ['MATCH_inputEPCClass', 'inputEPCClass'],
  ['MATCH_outputEPCClass', 'outputEPCClass'],
  ['MATCH_anyEPCClass', 'anyEPCClass'],
];

/** GET /epcis/events's order and size (GS1's orderBy, orderDirection, eventCountLimit, maxEventCount), checked. */
export function queryOrderOf(query: EpcisOrderParameters): {
  order?: EventOrder;
  eventCountLimit?: number;
  maxEventCount?: number;
} {
  const refuse = (name: string, message: string) =>
    new EpcisQueryRefused('epcis-invalid-query-parameters', message, [{ pointer: `/${name}`, message }]);
  if (query.eventCountLimit !== undefined && query.maxEventCount !== undefined)
    throw refuse('maxEventCount', 'eventCountLimit and maxEventCount exclude each other: send one.');
  if (query.eventCountLimit !== undefined && query.orderBy === undefined)
    throw refuse('eventCountLimit', 'eventCountLimit takes the first events in orderBy order: send orderBy too.');
  return {
    ...(query.orderBy ? { order: { by: query.orderBy, direction: query.orderDirection ?? 'DESC' } } : {}),
    ...(query.eventCountLimit ? { eventCountLimit: Number(query.eventCountLimit) } : {}),
    ...(query.maxEventCount ? { maxEventCount: Number(query.maxEventCount) } : {}),
  };
}

/** GS1's sensor parameters as conditions on a captured event's sensor elements. */
function sensorConditionsOf(query: EpcisQueryParameters): SensorCondition[] {
  const conditions: SensorCondition[] = [];
  if (query.EXISTS_sensorElementList === 'true') conditions.push({ kind: 'exists' });
  // GE_, GT_, LE_ and LT_: the times' comparisons, and percRank's.
  const comparisons = Object.keys(TIME_COMPARISONS) as TimeComparison[];
  for (const field of SENSOR_TIME_FIELDS) {
    for (const comparison of comparisons) {
      const at = timeOf(query, `${comparison}_${field}`);
      if (at) conditions.push({ kind: 'time', field, comparison, at: at.toISOString() });
    }
  }
  for (const field of Object.keys(SENSOR_TEXT_FIELDS) as SensorTextField[]) {
    const values = split(query, `EQ_${field}`);
    // A GS1 measurement type is a bare word in any of its spellings; hex binary is of either case.
    const read = field === 'type' ? sensorTypeWord : field === 'hexBinaryValue' ? (v: string) => v.toUpperCase() : null;
    if (values) conditions.push({ kind: 'text', field, values: read ? values.map(read) : values });
  }
  if (query.EQ_booleanValue) conditions.push({ kind: 'boolean', value: query.EQ_booleanValue === 'true' });
  for (const comparison of comparisons) {
    const value = query[`${comparison}_percRank`];
    if (value !== undefined)
      conditions.push({ kind: 'number', field: 'percRank', comparison, values: [value], unit: null });
  }
  for (const { comparison, field, unit, values } of numbersInUnit(query, SENSOR_VALUE_PARAMETER))
    conditions.push({ kind: 'number', field: field as SensorNumberField, comparison, values, unit });
  return conditions;
}

/** A number as an extension parameter compares it: digits, a sign, a decimal point, an exponent. */
const EXTENSION_NUMBER = /^[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]{1,3})?$/;
/** A date-time with its offset, its + perhaps sent unencoded (read as a space). */
const EXTENSION_TIME = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+(Z|[+ -][0-9]{2}:[0-9]{2})$/i;
const timeOfText = (value: string): string | undefined => {
  if (!EXTENSION_TIME.test(value)) return undefined;
  const time = new Date(withOffsetPlus(value));
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
};

/**
 * GS1's extension parameters (EQ_ILMD_cbvmda:countryOfOrigin, GT_INNER_example:weight, EXISTS_example:grading)
 * as conditions on captured events' fields. A prefix the request's GS1-Extensions header declares (`namespaces`),
 * or one of GS1's own, names its namespace, found whatever prefix an event's document gave it; any other prefix
 * is matched as the events' documents wrote it.
 */
function extensionConditionsOf(query: EpcisQueryParameters, namespaces: Namespaces): ExtensionCondition[] {
  return Object.keys(query).flatMap((name): ExtensionCondition[] => {
    const parameter = EXTENSION_PARAMETER.exec(name);
    if (!parameter) return [];
    const [, comparison, inner, area, prefix, local] = parameter as unknown as [
      string,
      ExtensionComparison,
      string | undefined,
      ExtensionArea | undefined,
      string,
      string,
    ];
    const namespace = namespaces[prefix] ?? GS1_NAMESPACES[prefix];
    const where = {
      area: area ?? 'event',
      inner: Boolean(inner),
      field: namespace ? { namespaces: namespaceSpellings(namespace), local } : { name: `${prefix}:${local}` },
    } as const;
    // Present, as the name was just read from the query.
    const value = query[name as ExtensionParameterName]!;
    if (comparison === 'EXISTS') return value === 'true' ? [{ ...where, test: { kind: 'exists' } }] : [];
    if (comparison === 'EQ') {
      const values = split(query, name as ExtensionParameterName)!;
      const times = values.map(timeOfText).filter((time) => time !== undefined);
      const numbers = values.filter((v) => EXTENSION_NUMBER.test(v));
      return [{ ...where, test: { kind: 'equals', texts: values, numbers, times } }];
    }
    const trimmed = value.trim();
    if (EXTENSION_NUMBER.test(trimmed)) return [{ ...where, test: { kind: 'number', comparison, value: trimmed } }];
    const at = timeOfText(trimmed);
    if (at) return [{ ...where, test: { kind: 'time', comparison, at } }];
    throw new EpcisQueryRefused('epcis-invalid-query-parameters', `${name} compares a number or a date-time.`, [
      {
        pointer: `/${name}`,
        message: `${name} "${value.slice(0, 100)}" is neither a number (12.5) nor a date-time with its offset (2024-03-01T10:00:00Z).`,
      },
    ]);
  });
}

/** The parameters of numbers in a unit (`GT_maxValue_cel`, `EQ_quantity_KGM`): their comparison, field, unit code and values. */
function numbersInUnit(query: EpcisQueryParameters, parameter: RegExp) {
  return Object.keys(query).flatMap((name) => {
    const match = parameter.exec(name);
    if (!match) return [];
    const [, comparison, field, unit] = match;
    // Present, as the name was just read from the query.
    const values = split(query, name as SensorValueParameterName | QuantityInUnitParameterName)!;
    return [{ comparison: comparison as QuantityComparison, field, unit: unit.toUpperCase(), values }];
  });
}

/** The query parameters as a filter of the account's events: every page's and every run's the same. */
export function queryFilterOf(
  accountId: string,
  query: EpcisQueryParameters,
  namespaces: Namespaces = {},
): Omit<EpcisEventFilter, 'limit' | 'afterSeq'> {
  const match: Partial<Record<MatchKind, string[]>> = {};
  for (const [param, kind] of MATCH_PARAMS) {
    const values = split(query, param);
    const unreadable = values?.find((value) => epcPatternOf(value) === null);
    if (unreadable) {
      throw new EpcisQueryRefused(
        'epcis-unreadable-epc-pattern',
        `${param} has an EPC pattern this service cannot read.`,
        [
          {
            pointer: `/${param}`,
            message: `${param} "${unreadable}" is not an EPC pattern such as urn:epc:idpat:sgtin:4012345.012345.* or urn:epc:idpat:sgtin:4012345.*.*.`,
          },
        ],
      );
    }
    if (values) match[kind] = values;
  }
  const quantity: Partial<Record<QuantityComparison, number>> = {};
  for (const comparison of Object.keys(QUANTITY_COMPARISONS) as QuantityComparison[]) {
    const value = query[`${comparison}_quantity`];
    if (value !== undefined) quantity[comparison] = Number(value);
  }
  return {
    accountId,
    eventType: split(query, 'eventType'),
    GE_eventTime: timeOf(query, 'GE_eventTime'),
    GT_eventTime: timeOf(query, 'GT_eventTime'),
    LE_eventTime: timeOf(query, 'LE_eventTime'),
    LT_eventTime: timeOf(query, 'LT_eventTime'),
    GE_recordTime: timeOf(query, 'GE_recordTime'),
    GT_recordTime: timeOf(query, 'GT_recordTime'),
    LE_recordTime: timeOf(query, 'LE_recordTime'),
    LT_recordTime: timeOf(query, 'LT_recordTime'),
    GE_errorDeclarationTime: timeOf(query, 'GE_errorDeclarationTime'),
    GT_errorDeclarationTime: timeOf(query, 'GT_errorDeclarationTime'),
    LE_errorDeclarationTime: timeOf(query, 'LE_errorDeclarationTime'),
    LT_errorDeclarationTime: timeOf(query, 'LT_errorDeclarationTime'),
    EQ_action: split(query, 'EQ_action'),
    EQ_bizStep: split(query, 'EQ_bizStep'),
    EQ_disposition: split(query, 'EQ_disposition'),
    EQ_readPoint: split(query, 'EQ_readPoint'),
    EQ_bizLocation: split(query, 'EQ_bizLocation'),
    WD_readPoint: split(query, 'WD_readPoint'),
    WD_bizLocation: split(query, 'WD_bizLocation'),
    EQ_eventID: split(query, 'EQ_eventID'),
    EQ_transformationID: split(query, 'EQ_transformationID'),
    EXISTS_errorDeclaration: query.EXISTS_errorDeclaration === 'true',
    EQ_errorReason: split(query, 'EQ_errorReason'),
    EQ_correctiveEventID: split(query, 'EQ_correctiveEventID'),
    quantity,
    quantityInUnit: numbersInUnit(query, QUANTITY_IN_UNIT_PARAMETER).map(({ comparison, unit, values }) => ({
      comparison,
      unit,
      values,
    })),
    EQ_persistentDisposition_set: split(query, 'EQ_persistentDisposition_set'),
    EQ_persistentDisposition_unset: split(query, 'EQ_persistentDisposition_unset'),
    match,
    sensor: sensorConditionsOf(query),
    extension: extensionConditionsOf(query, namespaces),
    typed: Object.keys(query).flatMap((name) => {
      const typed = TYPED_PARAMETER.exec(name);
      return typed
        ? [{ list: typed[1] as TypedList, type: typed[2], values: split(query, name as TypedParameterName)! }]
        : [];
    }),
  };
}
