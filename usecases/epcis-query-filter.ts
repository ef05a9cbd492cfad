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
  type MatchKind,
  type QuantityComparison,
  type SensorCondition,
  type TimeComparison,
} from '../db/queries/epcis-events';
import {
  QUANTITY_IN_UNIT_PARAMETER,
  SENSOR_TEXT_FIELDS,
  SENSOR_TIME_FIELDS,
  SENSOR_VALUE_PARAMETER,
  TYPED_PARAMETER,
  type EpcisOrderParameters,
  type EpcisQueryParameters,
  type QuantityInUnitParameterName,
  type SensorNumberField,
  type SensorTextField,
  type SensorValueParameterName,
  type TypedList,
  type TypedParameterName,
} from '../domain/epcis/query-parameters';
import { epcPatternOf } from '../domain/epcis/identifiers';
import { sensorTypeWord } from '../domain/epcis/xml/cbv';

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
    typed: Object.keys(query).flatMap((name) => {
      const typed = TYPED_PARAMETER.exec(name);
      return typed
        ? [{ list: typed[1] as TypedList, type: typed[2], values: split(query, name as TypedParameterName)! }]
        : [];
    }),
  };
}
