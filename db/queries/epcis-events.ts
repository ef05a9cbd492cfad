/**
 * Every event of an account as EPCIS sees it (GET /epcis/events and the top-level resources): events
 * captured through EPCIS match on the index stored with them (domain/epcis/translate.ts EpcisIndex),
 * our own events on the EPCIS view of their type, location and lines (domain/epcis/native.ts).
 */
import type { Sequelize } from 'sequelize';
import { canonicalIdentifier, epcPatternOf, glnPathOf, spellingsOf, tradeItemOf } from '../../domain/epcis/identifiers';
import {
  NATIVE_MAPPING,
  nativeEpcisEvent,
  nativeIdentifier,
  type NativeEvent,
  type NativeLine,
} from '../../domain/epcis/native';
import { cbvTerm, type EpcisEvent } from '../../domain/epcis/translate';
import { matchKey, type MatchList } from '../../domain/epcis/match-keys';
import { scaleOf, unitsComparedWith, type UnitSpelling } from '../../domain/units';
import {
  capturedMatchingSql,
  capturedSql,
  epcisContextSql,
  epcisIndexSql,
  epcisSql,
  originalJoin,
  reversesSql,
} from '../repositories/epcis-originals';
import type { EventType, LineRole } from '../../domain/events';
import {
  SENSOR_TEXT_FIELDS,
  type ExtensionArea,
  type SensorNumberField,
  type SensorTextField,
  type SensorTimeField,
  type TypedList,
} from '../../domain/epcis/query-parameters';
import { groupBy, microsOf, queryOf, timestampOfMicros } from '../sql';
import { GS1_NAMESPACES } from '../../domain/epcis/event-hash';

export interface EpcisEventFilter extends Partial<Record<`${TimeComparison}_${TimeField}`, Date>> {
  accountId: string;
  eventType?: string[];
  EQ_action?: string[];
  EQ_bizStep?: string[];
  EQ_disposition?: string[];
  EQ_readPoint?: string[];
  EQ_bizLocation?: string[];
  /**
   * With descendants: the service keeps no location hierarchy (no master data says which location is
   * within which), so a location's only descendant is itself and these filter as EQ_ does.
   */
  WD_readPoint?: string[];
  WD_bizLocation?: string[];
  EQ_eventID?: string[];
  EQ_transformationID?: string[];
  /** Only events declared erroneous (EXISTS_errorDeclaration). */
  EXISTS_errorDeclaration?: boolean;
  EQ_errorReason?: string[];
  EQ_correctiveEventID?: string[];
  /** EQ_/GT_/GE_/LT_/LE_quantity: some quantity element's quantity compared with the value. */
  quantity?: Partial<Record<QuantityComparison, number>>;
  /** GE_quantity_KGM and the like: some quantity element's in a unit of that unit's kind. */
  quantityInUnit?: ({ comparison: QuantityComparison } & Bounds)[];
  EQ_persistentDisposition_set?: string[];
  EQ_persistentDisposition_unset?: string[];
  match?: Partial<Record<MatchKind, string[]>>;
  /** EQ_bizTransaction_<type>, EQ_source_<type>, EQ_destination_<type>: an entry of the type, one of the values. */
  typed?: { list: TypedList; type: string; values: string[] }[];
  /** GS1's sensor parameters, each met by some sensor element of a captured event (ours carry no sensor data). */
  sensor?: SensorCondition[];
  /** GS1's extension parameters (EQ_ILMD_cbvmda:countryOfOrigin and the like), on captured events (ours carry none). */
  extension?: ExtensionCondition[];
  /** Only these events: those `match` may match, when withMatchCandidates found them through indexes. */
  candidates?: string[];
  /** Only events after this sequence number (the page cursor). */
  afterSeq?: string;
  /** In this order instead of as recorded (GS1's orderBy, orderDirection). */
  order?: EventOrder;
  /** Only events after this one in `order` (the page cursor): its orderBy field in microseconds since 1970, and its seq. */
  afterKey?: { at: string; seq: string };
  /** Only the events these batches stored (what a subscription's report covers). */
  batchIds?: string[];
  limit: number;
}

/**
 * One sensor parameter: EXISTS_sensorElementList; a text field of a report or its element's metadata
 * (EQ_type, EQ_deviceID, ...); a time (GE_time, LT_startTime, ...; as an ISO string, as JSON keeps it);
 * EQ_booleanValue; a report's number against bounds, each in a unit (GT_maxValue_CEL) or in none (percRank).
 */
export type SensorCondition =
  | { kind: 'exists' }
  | { kind: 'text'; field: SensorTextField; values: string[] }
  | { kind: 'time'; field: SensorTimeField; comparison: TimeComparison; at: string }
  | { kind: 'boolean'; value: boolean }
  | ({ kind: 'number'; field: SensorNumberField | 'percRank'; comparison: QuantityComparison } & Bounds);

/**
 * One extension parameter: the part of the event looked in (`inner`: at any depth within its top-level
 * extension fields), the field, and what its value must be. The field is named by its namespace, in each
 * spelling, and local name, matched whatever prefix the event's document gave that namespace; or, when
 * the query did not declare its prefix, by `prefix:local` as the document wrote it.
 */
export interface ExtensionCondition {
  area: ExtensionArea;
  inner: boolean;
  field: { namespaces: string[]; local: string } | { name: string };
  test:
    | { kind: 'exists' }
    /** Equal to one of `texts` as written, or, as a number or a time, to one of `numbers` or `times` (ISO strings). */
    | { kind: 'equals'; texts: string[]; numbers: string[]; times: string[] }
    | { kind: 'number'; comparison: TimeComparison; value: string }
    | { kind: 'time'; comparison: TimeComparison; at: string };
}

export interface EventOrder {
  by: 'eventTime' | 'recordTime';
  direction: 'ASC' | 'DESC';
}
const ORDER_COLUMNS: Record<EventOrder['by'], string> = { eventTime: 'e.event_time', recordTime: 'e.created_at' };

export const QUANTITY_COMPARISONS = { EQ: '=', GT: '>', GE: '>=', LT: '<', LE: '<=' } as const;
export type QuantityComparison = keyof typeof QUANTITY_COMPARISONS;

/** The standard's GE_/LT_ of eventTime and recordTime, and the GT_/LE_ real clients send beside them. */
export const TIME_COMPARISONS = { GE: '>=', GT: '>', LE: '<=', LT: '<' } as const;
export type TimeComparison = keyof typeof TIME_COMPARISONS;
/** The times a query compares: an event's, its record's, and its error declaration's declarationTime. */
export const TIME_FIELDS = ['eventTime', 'recordTime', 'errorDeclarationTime'] as const;
export type TimeField = (typeof TIME_FIELDS)[number];

/** The index arrays of a captured event each MATCH_ parameter looks in, and our lines' roles. */
const MATCH_SOURCES = {
  epc: { index: ['epc'], roles: ['instance', 'child'], serial: true },
  parentID: { index: ['parentID'], roles: ['parent'], serial: null },
  inputEPC: { index: ['inputEPC'], roles: ['input'], serial: true },
  outputEPC: { index: ['outputEPC'], roles: ['output'], serial: true },
  anyEPC: {
    index: ['epc', 'parentID', 'inputEPC', 'outputEPC'],
    roles: ['instance', 'child', 'input', 'output', 'parent'],
    serial: true,
  },
  epcClass: { index: ['epcClass'], roles: ['instance', 'child'], serial: false },
  inputEPCClass: { index: ['inputEPCClass'], roles: ['input'], serial: false },
  outputEPCClass: { index: ['outputEPCClass'], roles: ['output'], serial: false },
  anyEPCClass: {
    index: ['epcClass', 'inputEPCClass', 'outputEPCClass'],
    roles: ['instance', 'child', 'input', 'output'],
    serial: false,
  },
} satisfies Record<string, { index: MatchList[]; roles: LineRole[]; serial: boolean | null }>;
export type MatchKind = keyof typeof MATCH_SOURCES;
const MATCH_KINDS = Object.keys(MATCH_SOURCES) as MatchKind[];

const caseOf = (pick: (m: (typeof NATIVE_MAPPING)[EventType]) => string | null): string =>
  `CASE e.type ${Object.entries(NATIVE_MAPPING)
    .map(([type, m]) => `WHEN '${type}' THEN ${pick(m) === null ? 'NULL' : `'${pick(m)}'`}`)
    .join(' ')} END`;

const CAPTURED = capturedSql();
/** A captured event's original and its query index: apart (epcis_originals, joined as `o`) or, captured before, in its payload. */
const EPCIS = epcisSql();
const INDEX = epcisIndexSql();
/** A location of ours as its EPCIS identifier (domain/epcis/native.ts): its GLN as a Digital Link, else its URN. */
const nativeLocation = (alias: string) =>
  `CASE WHEN ${alias}.gln ~ '^[0-9]{13}$' THEN 'https://id.gs1.org/414/' || ${alias}.gln || CASE WHEN coalesce(${alias}.extension, '') NOT IN ('', '0') THEN '/254/' || ${alias}.extension ELSE '' END ELSE ${alias}.urn END`;
const NATIVE_LOCATION = nativeLocation('l');
/** A URN-based event's own BizStep or Disposition as a CBV bare word, else the mapping's. */
const nativeTerm = (field: 'BizStep' | 'Disposition', prefix: string, mapped: Parameters<typeof caseOf>[0]) =>
  `coalesce(regexp_replace(e.payload ->> '${field}', '^urn:epcglobal:cbv:${prefix}:', ''), ${caseOf(mapped)})`;

/** The EPCIS fields every filter reads, for both kinds of event. */
const FIELDS = {
  eventType: `CASE WHEN ${CAPTURED} THEN ${EPCIS} ->> 'type' ELSE ${caseOf((m) => m.type)} END`,
  action: `CASE WHEN ${CAPTURED} THEN ${EPCIS} ->> 'action' ELSE ${caseOf((m) => m.action)} END`,
  bizStep: `CASE WHEN ${CAPTURED} THEN ${INDEX} ->> 'bizStep' ELSE ${nativeTerm('BizStep', 'bizstep', (m) => m.bizStep)} END`,
  disposition: `CASE WHEN ${CAPTURED} THEN ${INDEX} ->> 'disposition' ELSE ${nativeTerm('Disposition', 'disp', (m) => m.disposition)} END`,
  readPoint: `CASE WHEN ${CAPTURED} THEN ${INDEX} ->> 'readPoint' ELSE ${NATIVE_LOCATION} END`,
  bizLocation: `CASE WHEN ${CAPTURED} THEN ${INDEX} ->> 'bizLocation' ELSE ${NATIVE_LOCATION} END`,
  eventID: `CASE WHEN e.payload ? 'EpcisPendingDeclaration' THEN e.payload ->> 'EpcisPendingDeclaration' WHEN ${CAPTURED} THEN e.external_event_id ELSE e.urn END`,
} as const;

export type EpcisField = keyof typeof FIELDS;

class Binder {
  readonly values: unknown[] = [];
  bind(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * A MATCH_ value our own events are compared on: a GTIN (with serial or lot), a GTIN pattern (an EPC
 * pattern URI), or the product URN and lot.
 */
function nativeKey(value: string): Record<'gtin' | 'gtinPattern' | 'lot' | 'urn', string | null> {
  const pattern = epcPatternOf(value);
  if (pattern) return { gtin: null, gtinPattern: pattern.gtin ?? null, lot: null, urn: null };
  const item = tradeItemOf(value);
  if (item) return { gtin: item.gtin, gtinPattern: null, lot: item.serial ?? item.lot ?? null, urn: null };
  const at = Math.max(value.lastIndexOf('.lot.'), value.lastIndexOf('.serial.'));
  if (at < 0) return { gtin: null, gtinPattern: null, lot: null, urn: value };
  const suffix = value.slice(at + 1).replace(/^(lot|serial)\./, '');
  let lot: string;
  try {
    lot = decodeURIComponent(suffix);
  } catch {
    lot = suffix;
  }
  return { gtin: null, gtinPattern: null, lot, urn: value.slice(0, at) };
}

function matchCondition(binder: Binder, kind: MatchKind, values: string[]): string {
  const source = MATCH_SOURCES[kind];
  // An identifier matches in one spelling; an EPC pattern URI (urn:epc:idpat:…) by its regular expression.
  const patterns = values.flatMap((v) => epcPatternOf(v)?.canonical ?? []);
  const exact = binder.bind(values.filter((v) => !epcPatternOf(v)).map(canonicalIdentifier));
  // Bound only when used: PostgreSQL cannot type a parameter no expression reads.
  const regexes = patterns.length ? binder.bind(patterns) : undefined;
  const captured = source.index
    .map((name) => {
      const list = `${INDEX} -> '${name}'`;
      return (
        `(${list}) ?| ${exact}::text[]` +
        (regexes
          ? ` OR EXISTS (SELECT 1 FROM jsonb_array_elements_text(${list}) AS v(id) WHERE v.id ~ ANY(${regexes}::text[]))`
          : '')
      );
    })
    .join(' OR ');
  const keys = values.map(nativeKey);
  const serial =
    source.serial === null ? '' : ` AND (p.identifier_type = 'Serial') = ${source.serial ? 'true' : 'false'}`;
  const native = `EXISTS (
      SELECT 1 FROM event_lines el JOIN products p ON p.id = el.product_id
        JOIN unnest(${binder.bind(keys.map((k) => k.gtin))}::text[], ${binder.bind(keys.map((k) => k.gtinPattern))}::text[], ${binder.bind(keys.map((k) => k.lot))}::text[], ${binder.bind(keys.map((k) => k.urn))}::text[]) AS k(gtin, pattern, lot, urn)
          ON (k.gtin IS NOT NULL AND lpad(p.gtin, 14, '0') = k.gtin) OR (k.pattern IS NOT NULL AND lpad(p.gtin, 14, '0') ~ k.pattern) OR (k.urn IS NOT NULL AND p.urn = k.urn)
       WHERE el.event_id = e.id AND el.role = ANY(${binder.bind(source.roles)}::text[])${serial}
         AND (k.lot IS NULL OR el.lot_serial = k.lot))`;
  return `CASE WHEN ${CAPTURED} THEN (${captured}) ELSE ${native} END`;
}

/** Past this many events that may match, a match reads the account's events in order instead (withMatchCandidates). */
const MATCH_CANDIDATES = 10_000;

/**
 * SQL: the ids of the events that may match MATCH_<kind>, found through indexes (a superset:
 * matchCondition decides): captured events by their identifiers (their original's match_keys or,
 * captured before originals were stored apart, in their payload), ours by their lines' lot or product.
 * None for an EPC pattern, which only a regular expression over each event finds.
 */
function candidatesSql(binder: Binder, account: string, kind: MatchKind, values: string[]): string | undefined {
  if (values.some((v) => epcPatternOf(v))) return undefined;
  const keys = binder.bind(
    MATCH_SOURCES[kind].index.flatMap((name) => values.map((v) => matchKey(name, canonicalIdentifier(v)))),
  );
  const native = values.map(nativeKey);
  const column = (pick: (key: ReturnType<typeof nativeKey>) => string | null) => binder.bind(native.map(pick));
  const lines = `unnest(${column((k) => k.gtin)}::text[], ${column((k) => k.lot)}::text[], ${column((k) => k.urn)}::text[]) AS k(gtin, lot, urn)`;
  const product = `(lpad(p.gtin, 14, '0') = k.gtin OR p.urn = k.urn)`;
  return `${capturedMatchingSql(account, keys)}
      UNION ALL
      SELECT el.event_id FROM ${lines}
        JOIN event_lines el ON el.account_id = ${account} AND el.lot_serial = k.lot
        JOIN products p ON p.id = el.product_id AND ${product}
      UNION ALL
      -- A line names its own account's product (activities/persist/resolve-products.ts).
      SELECT el.event_id FROM ${lines}
        JOIN products p ON p.account_id = ${account} AND k.lot IS NULL AND ${product}
        JOIN event_lines el ON el.product_id = p.id AND el.account_id = ${account}`;
}

/**
 * The filter with the events one of its MATCH_ parameters may match (`candidates`), found through
 * indexes: a match of a lot or an EPC among a million events then reads a handful of them, not all.
 * Unchanged when every match takes an EPC pattern or may match more than `most` events: reading
 * the account's events in order finds a page of so common a match sooner. Decided here, not by
 * PostgreSQL's planner, whose estimates of these sets chose the slow way for one kind of match or the other.
 */
export async function withMatchCandidates(
  sequelize: Sequelize,
  filter: EpcisEventFilter,
  most = MATCH_CANDIDATES,
): Promise<EpcisEventFilter> {
  // A subscription's report reads the events of the batches it reports on: few, through their index.
  if (filter.batchIds) return filter;
  for (const kind of MATCH_KINDS) {
    const values = filter.match?.[kind];
    const binder = new Binder();
    const sql = values && candidatesSql(binder, binder.bind(filter.accountId), kind, values);
    if (!sql) continue;
    // An event comes once for each way it is found (a captured event's lines name it too): twice the bound, then distinct.
    const rows = await queryOf(sequelize)<{ id: string }>(`${sql} LIMIT ${2 * most + 1}`, binder.values);
    const candidates = new Set(rows.map((row) => row.id));
    if (rows.length <= 2 * most && candidates.size <= most) return { ...filter, candidates: [...candidates] };
  }
  return filter;
}

/** Numbers a query compares with (as sent, exact decimals), in a unit (a UN/CEFACT code) or in none. */
export interface Bounds {
  values: string[];
  unit: string | null;
}

/**
 * Binds the bounds once and answers, for a `number` (SQL numeric), whether it compares so with one of their
 * values: as it is, or, with a unit, when it is in a unit of that unit's kind (`uom`: SQL text in capitals),
 * both read in the kind's base unit. A standard deviation (`difference`) is a difference of two levels: read
 * without the shift.
 */
function boundsComparison(
  binder: Binder,
  comparison: QuantityComparison,
  { values, unit }: Bounds,
  measures: 'level' | 'difference' = 'level',
): (number: string, uom: string) => string {
  const op = QUANTITY_COMPARISONS[comparison];
  const bound = binder.bind(values);
  if (!unit) return (number) => `${number} ${op} ANY(${bound}::numeric[])`;
  const units = unitsComparedWith(unit, measures);
  const column = (pick: (u: UnitSpelling) => string) => binder.bind(units.map(pick));
  const stored = `unnest(${column((u) => u.uom)}::text[], ${column((u) => u.scale.shift)}::numeric[],
                         ${column((u) => u.scale.num)}::numeric[], ${column((u) => u.scale.den)}::numeric[]) AS s(uom, shift, num, den)`;
  const asked = scaleOf(unit, measures);
  const inBase = `SELECT (q.value + ${binder.bind(asked.shift)}::numeric) * ${binder.bind(asked.num)}::numeric / ${binder.bind(asked.den)}::numeric
                    FROM unnest(${bound}::numeric[]) AS q(value)`;
  return (number, uom) =>
    `EXISTS (SELECT 1 FROM ${stored} WHERE ${uom} = s.uom AND (${number} + s.shift) * s.num / s.den ${op} ANY(${inBase}))`;
}

/**
 * Some quantity element's quantity compared with the bounds: a captured event's as sent (an element
 * without a quantity never matches), ours on its lines that are quantity elements (not Serial products),
 * in their product's unit.
 */
function quantityCondition(binder: Binder, comparison: QuantityComparison, bounds: Bounds): string {
  const lists = ['quantityList', 'childQuantityList', 'inputQuantityList', 'outputQuantityList']
    .map((list) => `coalesce(${EPCIS} -> '${list}', '[]')`)
    .join(' || ');
  const compared = boundsComparison(binder, comparison, bounds);
  const captured = compared(
    `CASE WHEN jsonb_typeof(q.element -> 'quantity') = 'number' THEN (q.element ->> 'quantity')::numeric END`,
    `upper(q.element ->> 'uom')`,
  );
  const ours = compared('el.quantity', 'p.unit_of_measure');
  return `CASE WHEN ${CAPTURED} THEN EXISTS (SELECT 1 FROM jsonb_array_elements(${lists}) AS q(element) WHERE ${captured})
          ELSE EXISTS (SELECT 1 FROM event_lines el JOIN products p ON p.id = el.product_id
                        WHERE el.event_id = e.id AND el.role <> 'parent' AND p.identifier_type <> 'Serial' AND ${ours}) END`;
}

/** A captured event's persistentDisposition set or unset names one of these (CBV terms in either spelling); ours have none. */
const persistentDispositionCondition = (binder: Binder, field: 'set' | 'unset', values: string[]): string =>
  `EXISTS (SELECT 1 FROM jsonb_array_elements_text(${EPCIS} -> 'persistentDisposition' -> '${field}') AS v(term)
            WHERE regexp_replace(v.term, '^(urn:epcglobal:cbv:disp:|https://ref\\.gs1\\.org/cbv/Disp-)', '') = ANY(${binder.bind(terms(values))}::text[]))`;

/** The elements of a JSON array, none of anything else (a field absent, or of another type). */
const elementsOf = (json: string): string =>
  `jsonb_array_elements(CASE WHEN jsonb_typeof(${json}) = 'array' THEN ${json} ELSE '[]' END)`;

/** A business transaction's or a source's type as a bare word: CBV's URN and Web URI forms are the same type. */
const TYPE_PREFIX = '^(urn:epcglobal:cbv:(btt|sdt):|https://ref\\.gs1\\.org/cbv/(BTT|SDT)-)';
const TYPED_LISTS = { bizTransaction: 'bizTransactionList', source: 'sourceList', destination: 'destinationList' };
const NATIVE_PARTIES = { source: 's', destination: 'd' };

/** EQ_bizTransaction_<type>, EQ_source_<type>, EQ_destination_<type>: an entry of that type naming one of the values. */
function typedCondition(
  binder: Binder,
  { list, type, values }: NonNullable<EpcisEventFilter['typed']>[number],
): string {
  const bare = binder.bind(type.replace(new RegExp(TYPE_PREFIX), ''));
  // A GLN or PGLN in each of its spellings: captured entries are kept as sent, our GLN locations named by Digital Link.
  const spellings = [...new Set(values.flatMap(spellingsOf))];
  const any = binder.bind(spellings);
  const entry = `x.entry ->> '${list}'`;
  // A GLN's or PGLN's Digital Link on another host than GS1's (a brand's own, perhaps with a path before GS1's).
  const paths = list === 'bizTransaction' ? [] : [...new Set(values.flatMap((v) => glnPathOf(v) ?? []))];
  const otherHost = paths.length
    ? ` OR (${entry} ~* '^https?://' AND EXISTS (SELECT 1 FROM unnest(${binder.bind(paths)}::text[]) AS p(path)
                                                 WHERE right(${entry}, length(p.path)) = p.path))`
    : '';
  const entries = `${EPCIS} -> '${TYPED_LISTS[list]}'`;
  const captured = `EXISTS (SELECT 1 FROM ${elementsOf(entries)} AS x(entry)
             WHERE regexp_replace(x.entry ->> 'type', '${TYPE_PREFIX}', '') = ${bare} AND (${entry} = ANY(${any}::text[])${otherHost}))`;
  // Ours carry no business transaction in EPCIS, and one source or destination, of type location.
  if (list === 'bizTransaction') return `(${CAPTURED} AND ${captured})`;
  const alias = NATIVE_PARTIES[list];
  return `CASE WHEN ${CAPTURED} THEN ${captured}
            ELSE ${bare} = 'location' AND ${alias}.id IS NOT NULL AND ${nativeLocation(alias)} = ANY(${any}::text[]) END`;
}

/** Each sensor element of a captured event (`se`), with each of its reports (`sr`) when it has some. */
const SENSOR_ELEMENTS = `${elementsOf(`${EPCIS} -> 'sensorElementList'`)} AS se(element)
       LEFT JOIN LATERAL ${elementsOf(`se.element -> 'sensorReport'`)} AS sr(report) ON true`;
const SENSOR_PLACES = { metadata: `(se.element -> 'sensorMetadata')`, report: 'sr.report' } as const;
/** A report's type as the query's values are: GS1's measurement types as bare words (`gs1:Temperature` too). */
const SENSOR_TYPE = `regexp_replace(sr.report ->> 'type', '^gs1:([A-Za-z]+)$', '\\1')`;
/**
 * A stored time, a date-time with its offset, as a timestamptz; NULL where it is not one PostgreSQL holds,
 * which a cast would answer with an error, failing the query: GS1's schema lets through year 0000 and
 * offsets past ±15:59, and an extension field may hold any text (month 13, 25 o'clock).
 */
const storedTime = (text: string): string =>
  `CASE WHEN ${text} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+([Zz]|[+-][0-9]{2}:[0-9]{2})$' AND pg_input_is_valid(${text}, 'timestamptz')
        THEN (${text})::timestamptz END`;

/** Where some sensor element of a captured event, or one of its reports, meets `condition`. */
function sensorWhere(binder: Binder, condition: SensorCondition): string {
  switch (condition.kind) {
    case 'exists':
      return 'true';
    case 'text': {
      const values = binder.bind(condition.values);
      return SENSOR_TEXT_FIELDS[condition.field]
        .map((place) => {
          const text = `${SENSOR_PLACES[place]} ->> '${condition.field}'`;
          const stored =
            condition.field === 'type' ? SENSOR_TYPE : condition.field === 'hexBinaryValue' ? `upper(${text})` : text;
          return `${stored} = ANY(${values}::text[])`;
        })
        .join(' OR ');
    }
    case 'time': {
      // A Date, as every other time filter binds it: the driver writes any year PostgreSQL holds.
      const at = binder.bind(new Date(condition.at));
      const places = condition.field === 'time' ? Object.values(SENSOR_PLACES) : [SENSOR_PLACES.metadata];
      return places
        .map(
          (place) =>
            `${storedTime(`${place} ->> '${condition.field}'`)} ${TIME_COMPARISONS[condition.comparison]} ${at}`,
        )
        .join(' OR ');
    }
    case 'boolean':
      return `sr.report -> 'booleanValue' = to_jsonb(${binder.bind(condition.value)}::boolean)`;
    case 'number': {
      const number = `sr.report -> '${condition.field}'`;
      const measures = condition.field === 'sDev' ? 'difference' : 'level';
      return boundsComparison(
        binder,
        condition.comparison,
        condition,
        measures,
      )(`CASE WHEN jsonb_typeof(${number}) = 'number' THEN (${number})::numeric END`, `upper(sr.report ->> 'uom')`);
    }
  }
}

const sensorCondition = (binder: Binder, condition: SensorCondition): string =>
  `(${CAPTURED} AND EXISTS (SELECT 1 FROM ${SENSOR_ELEMENTS} WHERE ${sensorWhere(binder, condition)}))`;

/**
 * SQL: what `pick` reads of the event that declared event `e` erroneous (its EPCIS original `d`, its
 * original's row `dorig`): a declaration captured after it, one captured before it, or `e` itself, sent
 * with its errorDeclaration.
 */
const ofDeclaringEvent = (pick: (d: string, o: string) => string): string => `coalesce(
           (SELECT ${pick('d', 'dorig')} FROM events d ${originalJoin('d', 'dorig')} WHERE ${reversesSql('d')}),
           (SELECT ${pick('d', 'dorig')} FROM events d ${originalJoin('d', 'dorig')} WHERE d.id = (e.payload ->> 'EpcisDeclaredBy')::uuid AND d.account_id = e.account_id),
           CASE WHEN e.payload ? 'EpcisPendingDeclaration' OR (${CAPTURED} AND NOT (e.payload ? 'EpcisDeclarationOf') AND ${EPCIS} ? 'errorDeclaration') THEN ${pick('e', 'o')} END
         )`;
/** A stored text as a numeric, NULL when it is not a number (the exponent bounded: numeric holds it). */
const storedNumber = (text: string): string =>
  `CASE WHEN ${text} ~ '^\\s*[-+]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][-+]?[0-9]{1,3})?\\s*$' THEN (${text})::numeric END`;

/** JSON as an object, `{}` when it is anything else (absent, a string). */
const objectOf = (json: string): string => `CASE WHEN jsonb_typeof(${json}) = 'object' THEN ${json} ELSE '{}' END`;

const SENSOR_LIST = elementsOf(`${EPCIS} -> 'sensorElementList'`);
/** The objects of a captured event (`a.area`) an extension parameter looks in, by its area. */
const AREA_OBJECTS: Record<ExtensionArea, string> = {
  event: `(SELECT ${EPCIS}) AS a(area)`,
  ILMD: `(SELECT ${EPCIS} -> 'ilmd') AS a(area)`,
  ERROR_DECLARATION: '(SELECT decl.declaration) AS a(area)',
  readPoint: `(SELECT ${EPCIS} -> 'readPoint') AS a(area)`,
  bizLocation: `(SELECT ${EPCIS} -> 'bizLocation') AS a(area)`,
  SENSORELEMENT: `${SENSOR_LIST} AS a(area)`,
  SENSORMETADATA: `(SELECT se.element -> 'sensorMetadata' FROM ${SENSOR_LIST} AS se(element)) AS a(area)`,
  SENSORREPORT: `(SELECT sr.report FROM ${SENSOR_LIST} AS se(element)
                   CROSS JOIN LATERAL ${elementsOf(`se.element -> 'sensorReport'`)} AS sr(report)) AS a(area)`,
};
/**
 * The fields of `a.area` (`f`: key, value): its own, or (inner) every field at any depth within its top-level
 * extension fields, objects in arrays too.
 */
const extensionFields = (inner: boolean): string =>
  inner
    ? `(SELECT kv ->> 'key' AS key, kv -> 'value' AS value FROM jsonb_each(${objectOf('a.area')}) AS t
         CROSS JOIN LATERAL jsonb_path_query(t.value, 'strict $.** ? (@.type() == "object").keyvalue()') AS kv
         WHERE strpos(t.key, ':') > 0) AS f`
    : `jsonb_each(${objectOf('a.area')}) AS f(key, value)`;
/**
 * The namespaces of a document, prefix to IRI (`n.ns`), from its @context (`context`, SQL): GS1's own,
 * then its objects' in order, a later declaration of a prefix winning.
 */
const namespacesOf = (context: string): string => `(SELECT '${JSON.stringify(GS1_NAMESPACES)}'::jsonb || coalesce(
         (SELECT jsonb_object_agg(c.key, c.value ORDER BY x.n)
            FROM (SELECT ${context} AS context) AS doc
           CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(doc.context) = 'array' THEN doc.context
                                                        ELSE jsonb_build_array(doc.context) END) WITH ORDINALITY AS x(entry, n)
           CROSS JOIN LATERAL jsonb_each(${objectOf('x.entry')}) AS c WHERE jsonb_typeof(c.value) = 'string'), '{}')) AS n(ns)`;
/** An area's names are in the namespaces of the document it came in: an error declaration's may be another's. */
const EVENT_NAMESPACES = namespacesOf(epcisContextSql());
const DECLARATION_NAMESPACES = namespacesOf(ofDeclaringEvent((d, o) => epcisContextSql(d, o)));
/** Each value of field `f` as text (`v.text`): each of a repeated field's, an element's text beside its attributes. */
const FIELD_VALUES = `(SELECT coalesce(x.item ->> '@value', x.item ->> '@id', x.item #>> '{}') AS text
         FROM jsonb_array_elements(CASE WHEN jsonb_typeof(f.value) = 'array' THEN f.value ELSE jsonb_build_array(f.value) END) AS x(item)) AS v`;

/** Whether the value `v.text` passes the condition's test (exists: the field `f` is not empty). */
function extensionTest(binder: Binder, test: ExtensionCondition['test']): string {
  switch (test.kind) {
    case 'exists':
      return `f.value NOT IN ('null'::jsonb, '""'::jsonb, '[]'::jsonb, '{}'::jsonb)`;
    case 'equals':
      return [
        `v.text = ANY(${binder.bind(test.texts)}::text[])`,
        ...(test.numbers.length ? [`${storedNumber('v.text')} = ANY(${binder.bind(test.numbers)}::numeric[])`] : []),
        ...(test.times.length
          ? [`${storedTime('v.text')} = ANY(${binder.bind(test.times.map((t) => new Date(t)))}::timestamptz[])`]
          : []),
      ].join(' OR ');
    case 'number':
      return `${storedNumber('v.text')} ${TIME_COMPARISONS[test.comparison]} ${binder.bind(test.value)}::numeric`;
    case 'time':
      return `${storedTime('v.text')} ${TIME_COMPARISONS[test.comparison]} ${binder.bind(new Date(test.at))}`;
  }
}

/** Some field of the condition's area, named as it says, passes its test. */
function extensionCondition(binder: Binder, { area, inner, field, test }: ExtensionCondition): string {
  const named =
    'name' in field
      ? `f.key = ${binder.bind(field.name)}`
      : `strpos(f.key, ':') > 0 AND substr(f.key, strpos(f.key, ':') + 1) = ${binder.bind(field.local)}
           AND n.ns ->> split_part(f.key, ':', 1) = ANY(${binder.bind(field.namespaces)}::text[])`;
  const from = [
    ...('name' in field ? [] : [area === 'ERROR_DECLARATION' ? DECLARATION_NAMESPACES : EVENT_NAMESPACES]),
    AREA_OBJECTS[area],
    extensionFields(inner),
    ...(test.kind === 'exists' ? [] : [FIELD_VALUES]),
  ].join('\n         CROSS JOIN LATERAL ');
  return `(${CAPTURED} AND EXISTS (SELECT 1 FROM ${from} WHERE ${named} AND (${extensionTest(binder, test)})))`;
}

/** A CBV value as stored in the index: bare words for CBV terms, other URIs as they are. */
const terms = (values: string[]): string[] => values.map((v) => cbvTerm(v)!);

function whereOf(filter: EpcisEventFilter, binder: Binder): string {
  // An error declaration's reversal is not an event of its own: it shows as the declared event's errorDeclaration.
  // So is a declaration that came before its event, once the event is here.
  const account = binder.bind(filter.accountId);
  const conditions = [
    `e.account_id = ${account}`,
    `NOT (e.payload ? 'EpcisDeclarationOf')`,
    `NOT ${APPLIED_DECLARATION}`,
  ];
  const anyOf = (field: EpcisField, values: string[] | undefined) => {
    if (values) conditions.push(`${FIELDS[field]} = ANY(${binder.bind(values)}::text[])`);
  };
  anyOf('eventType', filter.eventType);
  anyOf('action', filter.EQ_action);
  anyOf('bizStep', filter.EQ_bizStep && terms(filter.EQ_bizStep));
  anyOf('disposition', filter.EQ_disposition && terms(filter.EQ_disposition));
  anyOf('readPoint', filter.EQ_readPoint?.map(canonicalIdentifier));
  anyOf('bizLocation', filter.EQ_bizLocation?.map(canonicalIdentifier));
  anyOf('readPoint', filter.WD_readPoint?.map(canonicalIdentifier));
  anyOf('bizLocation', filter.WD_bizLocation?.map(canonicalIdentifier));
  anyOf('eventID', filter.EQ_eventID);
  // A captured event is found by its CBV 2.0 event hash id too, whatever eventID it was sent with.
  if (filter.EQ_eventID)
    conditions[conditions.length - 1] =
      `(${conditions[conditions.length - 1]} OR e.epcis_hash = ANY(${binder.bind(filter.EQ_eventID)}::text[]))`;
  if (filter.EQ_transformationID)
    conditions.push(`${EPCIS} ->> 'transformationID' = ANY(${binder.bind(filter.EQ_transformationID)}::text[])`);
  if (filter.EXISTS_errorDeclaration) conditions.push('decl.declaration IS NOT NULL');
  if (filter.EQ_errorReason)
    conditions.push(`decl.declaration ->> 'reason' = ANY(${binder.bind(terms(filter.EQ_errorReason))}::text[])`);
  if (filter.EQ_correctiveEventID)
    conditions.push(
      `(decl.declaration -> 'correctiveEventIDs') ?| ${binder.bind(filter.EQ_correctiveEventID)}::text[]`,
    );
  for (const [comparison, value] of Object.entries(filter.quantity ?? {}) as [QuantityComparison, number][])
    conditions.push(quantityCondition(binder, comparison, { values: [String(value)], unit: null }));
  for (const { comparison, ...bounds } of filter.quantityInUnit ?? [])
    conditions.push(quantityCondition(binder, comparison, bounds));
  if (filter.EQ_persistentDisposition_set)
    conditions.push(persistentDispositionCondition(binder, 'set', filter.EQ_persistentDisposition_set));
  if (filter.EQ_persistentDisposition_unset)
    conditions.push(persistentDispositionCondition(binder, 'unset', filter.EQ_persistentDisposition_unset));
  let since: Date | undefined; // the tightest lower bound on created_at (GE_, GT_)
  const window: string[] = []; // the eventTime bounds, of events `w`
  for (const [comparison, op] of Object.entries(TIME_COMPARISONS) as [TimeComparison, string][]) {
    const eventTime = filter[`${comparison}_eventTime`];
    if (eventTime) {
      const at = binder.bind(eventTime);
      conditions.push(`e.event_time ${op} ${at}`);
      window.push(`w.event_time ${op} ${at}`);
    }
    const declared = filter[`${comparison}_errorDeclarationTime`];
    if (declared)
      conditions.push(`(decl.declaration ->> 'declarationTime')::timestamptz ${op} ${binder.bind(declared)}`);
    const recordTime = filter[`${comparison}_recordTime`];
    if (!recordTime) continue;
    const range = recordTimeRange(comparison, recordTime);
    conditions.push(`e.created_at ${range.op} ${binder.bind(range.at)}`);
    if (range.op === '>=' && (!since || range.at > since)) since = range.at;
  }
  // A poll's first page. Walking the events in seq order for the page's LIMIT, PostgreSQL expects the new
  // ones spread along that order and reads every older event first; they are at its end. The walk starts
  // at the least seq among them (exact, in whatever order concurrent batches committed), read from the
  // record-time index (min of seq + 0: PostgreSQL would answer min(seq) by that same walk), unless every
  // event of the account is new (an export from the beginning).
  if (since && !filter.afterSeq) {
    const at = binder.bind(since);
    conditions.push(`e.seq >= (SELECT CASE WHEN min(f.created_at) >= ${at} THEN 0
                                           ELSE (SELECT min(r.seq + 0) FROM events r WHERE r.account_id = ${account} AND r.created_at >= ${at}) END
                                 FROM events f WHERE f.account_id = ${account})`);
  }
  // An eventTime window's first page, in seq order: PostgreSQL reads a window of an hour or so by its index,
  // but a wider one by that same walk from the account's first event, expecting the window spread along it.
  // The walk starts at the least seq in the window, read from (account_id, event_time, seq).
  if ((filter.GE_eventTime || filter.GT_eventTime) && !filter.afterSeq && !filter.order)
    conditions.push(
      `e.seq >= (SELECT min(w.seq + 0) FROM events w WHERE w.account_id = ${account} AND ${window.join(' AND ')})`,
    );
  for (const kind of MATCH_KINDS) {
    const values = filter.match?.[kind];
    if (values) conditions.push(matchCondition(binder, kind, values));
  }
  for (const typed of filter.typed ?? []) conditions.push(typedCondition(binder, typed));
  for (const sensor of filter.sensor ?? []) conditions.push(sensorCondition(binder, sensor));
  for (const extension of filter.extension ?? []) conditions.push(extensionCondition(binder, extension));
  if (filter.candidates) conditions.push(`e.id = ANY(${binder.bind(filter.candidates)}::uuid[])`);
  if (filter.afterSeq) conditions.push(`e.seq > ${binder.bind(filter.afterSeq)}`);
  if (filter.afterKey && filter.order) {
    const at = timestampOfMicros(binder.bind(filter.afterKey.at));
    const op = filter.order.direction === 'ASC' ? '>' : '<';
    conditions.push(
      `(${ORDER_COLUMNS[filter.order.by]}, e.seq) ${op} (${at}, ${binder.bind(filter.afterKey.seq)}::bigint)`,
    );
  }
  if (filter.batchIds) conditions.push(`e.batch_id = ANY(${binder.bind(filter.batchIds)}::uuid[])`);
  return conditions.join('\n    AND ');
}

/**
 * recordTime is answered to the millisecond, so it is compared so: a client's LE_ of a recordTime it was
 * given finds that event. Said as a range of created_at itself (a bound one millisecond later for GT_ and
 * LE_), the comparison can use the (account_id, created_at) index a poll for what is new needs.
 */
function recordTimeRange(comparison: TimeComparison, at: Date): { op: '>=' | '<'; at: Date } {
  return {
    op: comparison === 'GE' || comparison === 'GT' ? '>=' : '<',
    at: comparison === 'GT' || comparison === 'LE' ? new Date(at.getTime() + 1) : at,
  };
}

/** An event as epcisEventsQuery answers it: a captured one's original, or ours as nativeEpcisEvent reads it. */
interface EventRow extends Omit<NativeEvent, 'lines'> {
  id: string;
  seq: string;
  /** With an order: its field in microseconds since 1970 (a Date would lose them). */
  sortAt?: string;
  captured: boolean;
  epcis: EpcisEvent | null;
  context: unknown[] | null;
  declaration: EpcisEvent['errorDeclaration'] | null;
}

export interface EpcisEventPage {
  events: EpcisEvent[];
  /** Namespace definitions the captured events' extensions use (their documents' @context). */
  namespaces: unknown[];
  /** When there are more: the last event's seq and, with an order, its orderBy field in microseconds since 1970. */
  next?: { seq: string; at?: string };
}

/**
 * The error declaration captured for an event, if any (at most one: a unique index says so): the
 * reversal pointing at it, the declaration that came before it, or a declaration of an event not held (its own).
 */
const DECLARATION = `LEFT JOIN LATERAL (
         SELECT ${ofDeclaringEvent((d, o) => `${epcisSql(d, o)} -> 'errorDeclaration'`)} AS declaration) AS decl ON true`;

/** A declaration of an event not held, once that event has arrived: it shows as that event's errorDeclaration. */
const APPLIED_DECLARATION = `(e.payload ? 'EpcisPendingDeclaration'
       AND EXISTS (SELECT 1 FROM events x WHERE x.account_id = e.account_id AND x.external_event_id = e.payload ->> 'EpcisPendingDeclaration'))`;

/** What a query reads: the event, its original, its locations and its error declaration. */
const EVENTS_FROM = `events e
       ${originalJoin()}
       JOIN locations l ON l.id = e.location_id
       LEFT JOIN locations s ON s.id = e.source_location_id
       LEFT JOIN locations d ON d.id = e.destination_location_id
       ${DECLARATION}`;

const locationJson = (alias: string) =>
  `CASE WHEN ${alias}.id IS NULL THEN NULL ELSE json_build_object('gln', ${alias}.gln, 'extension', ${alias}.extension, 'urn', ${alias}.urn) END`;

/**
 * SQL and its binds: one page of the account's events matching `filter` (and one more, to know whether a
 * next page exists), in the order they were recorded unless `filter.order` says another.
 */
export function epcisEventsQuery(filter: EpcisEventFilter): { sql: string; bind: unknown[] } {
  const binder = new Binder();
  const where = whereOf(filter, binder);
  const { order } = filter;
  const column = order && ORDER_COLUMNS[order.by];
  const sortAt = column ? `, ${microsOf(column)} AS "sortAt"` : '';
  const orderBy = order ? `${column} ${order.direction}, e.seq ${order.direction}` : 'e.seq';
  const sql = `SELECT e.id, e.seq, ${CAPTURED} AS captured, ${EPCIS} AS epcis, ${epcisContextSql()} AS context,
            e.type, e.urn, e.event_time AS "eventTime", e.event_time_zone AS "eventTimeZone", e.created_at AS "recordTime",
            e.payload ->> 'BizStep' AS "bizStep", e.payload ->> 'Disposition' AS disposition,
            ${locationJson('l')} AS location, ${locationJson('s')} AS source, ${locationJson('d')} AS destination, decl.declaration${sortAt}
       FROM ${EVENTS_FROM}
      WHERE ${where}
      ORDER BY ${orderBy}
      LIMIT ${binder.bind(filter.limit + 1)}`;
  return { sql, bind: binder.values };
}

/** One page of the account's events matching `filter`, in the order they were recorded unless it says another. */
export async function findEpcisEvents(sequelize: Sequelize, filter: EpcisEventFilter): Promise<EpcisEventPage> {
  const { sql, bind } = epcisEventsQuery(await withMatchCandidates(sequelize, filter));
  const rows = await queryOf(sequelize)<EventRow>(sql, bind);
  const page = rows.slice(0, filter.limit);
  const lines = await linesOf(
    sequelize,
    page.filter((r) => !r.captured).map((r) => r.id),
  );
  const namespaces = new Map<string, unknown>();
  const events = page.map((row): EpcisEvent => {
    const declared = row.declaration ? { errorDeclaration: row.declaration } : {};
    if (row.captured) {
      for (const entry of row.context ?? []) namespaces.set(JSON.stringify(entry), entry);
      return { ...row.epcis!, recordTime: row.recordTime.toISOString(), ...declared };
    }
    return { ...nativeEpcisEvent({ ...row, lines: lines.get(row.id) ?? [] }), ...declared };
  });
  return {
    events,
    namespaces: [...namespaces.values()],
    ...(rows.length > filter.limit ? { next: nextOf(page[page.length - 1]) } : {}),
  };
}

const nextOf = ({ seq, sortAt }: EventRow) => ({ seq, ...(sortAt === undefined ? {} : { at: sortAt }) });

/**
 * How many of the account's events match `filter` (one without a page cursor), counted up to `atMost + 1`:
 * enough to tell whether more than `atMost` do (GS1's maxEventCount, a first report's bound).
 */
export async function countEpcisEvents(
  sequelize: Sequelize,
  filter: EpcisEventFilter,
  atMost: number,
): Promise<number> {
  const binder = new Binder();
  const all = await withMatchCandidates(sequelize, filter);
  const [{ n }] = await queryOf(sequelize)<{ n: string }>(
    `SELECT count(*) AS n FROM (
       SELECT 1 FROM ${EVENTS_FROM}
        WHERE ${whereOf(all, binder)}
        LIMIT ${binder.bind(atMost + 1)}) AS m`,
    binder.values,
  );
  return Number(n);
}

async function linesOf(sequelize: Sequelize, eventIds: string[]): Promise<Map<string, NativeLine[]>> {
  if (!eventIds.length) return new Map();
  const rows = await queryOf(sequelize)<NativeLine & { event_id: string }>(
    `SELECT el.event_id, el.role, p.gtin, p.urn AS "productUrn", p.identifier_type = 'Serial' AS serial, p.unit_of_measure AS unit,
            el.lot_serial AS "lotSerial", el.quantity::text AS quantity
       FROM event_lines el JOIN products p ON p.id = el.product_id
      WHERE el.event_id = ANY($1::uuid[])
      ORDER BY el.event_id, CASE el.role WHEN 'parent' THEN 0 WHEN 'input' THEN 1 ELSE 2 END, el.role, el.position`,
    [eventIds],
  );
  return groupBy(rows, ({ event_id, ...line }) => [event_id, line]);
}

/** The distinct values of one EPCIS field among the account's events (the top-level resources). */
export async function distinctEpcisValues(
  sequelize: Sequelize,
  accountId: string,
  field: EpcisField,
): Promise<string[]> {
  const rows = await queryOf(sequelize)<{ value: string }>(
    `SELECT DISTINCT ${FIELDS[field]} AS value FROM events e ${originalJoin()} JOIN locations l ON l.id = e.location_id
      WHERE e.account_id = $1 AND NOT (e.payload ? 'EpcisDeclarationOf') AND ${FIELDS[field]} IS NOT NULL ORDER BY 1`,
    [accountId],
  );
  return rows.map((r) => r.value);
}

/** The EPCs (instance identifiers) the account's events name: captured ones as indexed, ours by their Serial lines. */
export async function distinctEpcs(sequelize: Sequelize, accountId: string): Promise<string[]> {
  const query = queryOf(sequelize);
  const [captured, serials] = await Promise.all([
    query<{ value: string }>(
      `SELECT DISTINCT v.value FROM events e ${originalJoin()}
         CROSS JOIN LATERAL jsonb_array_elements_text(
           coalesce(${INDEX} -> 'epc', '[]') || coalesce(${INDEX} -> 'parentID', '[]') ||
           coalesce(${INDEX} -> 'inputEPC', '[]') || coalesce(${INDEX} -> 'outputEPC', '[]')) AS v(value)
        WHERE e.account_id = $1 AND ${CAPTURED} AND NOT (e.payload ? 'EpcisDeclarationOf')`,
      [accountId],
    ),
    query<Pick<NativeLine, 'gtin' | 'productUrn' | 'lotSerial'>>(
      `SELECT DISTINCT p.gtin, p.urn AS "productUrn", el.lot_serial AS "lotSerial" FROM event_lines el
         JOIN events e ON e.id = el.event_id JOIN products p ON p.id = el.product_id
        WHERE el.account_id = $1 AND NOT ${CAPTURED} AND p.identifier_type = 'Serial'`,
      [accountId],
    ),
  ]);
  const all = new Set([
    ...captured.map((r) => r.value),
    ...serials.map((line) => nativeIdentifier({ ...line, serial: true })),
  ]);
  return [...all].sort();
}

/**
 * Which of these company prefixes the account's captured events spell out in an EPC URN: what turns a
 * Digital Link of the same company into a URN (GS1-EPC-Format: Always_EPC_URN). Kept as events are
 * stored (db/repositories/batch-events.ts recordCompanyPrefixes), so a query does not read the account's events for them.
 */
export async function knownCompanyPrefixes(
  sequelize: Sequelize,
  accountId: string,
  candidates: string[],
): Promise<string[]> {
  if (!candidates.length) return [];
  const rows = await queryOf(sequelize)<{ prefix: string }>(
    'SELECT prefix FROM epcis_company_prefixes WHERE account_id = $1 AND prefix = ANY($2::text[])',
    [accountId, candidates],
  );
  return rows.map((r) => r.prefix);
}
