/**
 * The FDA's electronic sortable spreadsheet (FSMA 204, 21 CFR 1.1455(c)(3)(ii)): one row per Critical
 * Tracking Event and traceability lot, with the Key Data Elements 21 CFR 1.1330-1.1350 name for that
 * event, under the KDE names as column headers. Pure: rows in, rows out.
 *
 * Seafood from a fishing vessel (21 CFR 1.1335): a lot whose first event is at a vessel location was
 * caught, not packed. Its events at vessels are no CTE of the rule (harvesting and initial packing are
 * for food not obtained from a fishing vessel); the first event that takes it on land is the First
 * Land-Based Receiving CTE, carrying the trip's harvest dates and catch areas, the vessels and the landing
 * date, and that receiver is the lot code's source.
 */
import type { StoredAddress } from './master-data';

/** In the rule's order (21 CFR 1.1330 to 1.1350): the order of the workbook's sheets. */
export const CTES = [
  'Initial Packing',
  'First Land-Based Receiving',
  'Shipping',
  'Receiving',
  'Transformation',
] as const;
export type CriticalTrackingEvent = (typeof CTES)[number];

/** Our event types that are CTEs; aggregation, observation and decommissioning are not. */
const CTE_OF: Readonly<Record<string, CriticalTrackingEvent>> = {
  Commission: 'Initial Packing',
  Ship: 'Shipping',
  Receive: 'Receiving',
  Transform: 'Transformation',
};

export interface VesselFacts {
  name: string | null;
  identifier: string | null;
  flagState: string | null;
}

export interface PlaceFacts {
  /** Same id, same place: its description is made once. */
  id: string;
  tradePartner: string;
  name: string;
  gln: string | null;
  address: Partial<Pick<StoredAddress, 'addressLine1' | 'city' | 'state' | 'postalCode' | 'country'>> | null;
  phone: string | null;
  /** Set when the location is a fishing vessel. */
  vessel: VesselFacts | null;
}

/** One line of a CTE as stored: the lot it names, where and when, and the documents it refers to. */
export interface CteLine {
  eventId: string;
  account: string;
  type: string;
  role: string;
  eventTime: Date;
  lotSerial: string;
  productName: string;
  quantity: string;
  unit: string;
  location: PlaceFacts;
  source: PlaceFacts | null;
  destination: PlaceFacts | null;
  documents: { type: string; number: string }[];
  /** For a transform output: the lots it was made from. */
  inputLots: string[];
  /** The catch areas the event names (GDST's catchArea), for a catch at a vessel. */
  harvestAreas: string[];
}

/** 21 CFR 1.1335's KDEs beyond every CTE's, and the vessels. */
const LANDING_COLUMNS = [
  'Harvest Start Date',
  'Harvest End Date',
  'Harvest Location',
  'Landing Date',
  'Vessel Name',
  'Vessel Identifier',
  'Vessel Flag State',
] as const;
type LandingColumn = (typeof LANDING_COLUMNS)[number];

/** Every column, in the order of the CSV (one row per event, the CTE in the first column). */
export const FSMA_COLUMNS = [
  'Critical Tracking Event',
  'Traceability Lot Code',
  'Traceability Lot Code Source Location Description',
  'Traceability Lot Code Source Reference',
  'Product Description',
  'Quantity',
  'Unit of Measure',
  'Event Date',
  'Event Time (UTC)',
  'Location Description',
  'Location Identifier (GLN)',
  'Immediate Previous Source Location Description',
  'Immediate Subsequent Recipient Location Description',
  'Input Traceability Lot Codes',
  ...LANDING_COLUMNS,
  'Reference Document Type',
  'Reference Document Number',
  'Record Keeper',
  'Event Id',
] as const;

export type FsmaColumn = (typeof FSMA_COLUMNS)[number];
/** Times are ISO 8601 UTC text: they sort as text in the order they happened, in any spreadsheet program. */
export type FsmaRow = Record<FsmaColumn, string | number>;

/** The columns only some CTEs have; every CTE has the rest (lot, its source, product, quantity, place, time, documents). */
const OWN_COLUMNS: Readonly<Record<CriticalTrackingEvent, readonly FsmaColumn[]>> = {
  'Initial Packing': [],
  'First Land-Based Receiving': LANDING_COLUMNS,
  Shipping: ['Immediate Subsequent Recipient Location Description'],
  Receiving: ['Immediate Previous Source Location Description'],
  Transformation: ['Input Traceability Lot Codes'],
};
const SOME_CTES = new Set(Object.values(OWN_COLUMNS).flat());

/** The columns of `cte`'s sheet, in CSV order: the sheet names the CTE, and a landing's date is its Landing Date. */
const sheetColumnsOf = (cte: CriticalTrackingEvent): readonly FsmaColumn[] =>
  FSMA_COLUMNS.filter(
    (c) =>
      c !== 'Critical Tracking Event' &&
      (!SOME_CTES.has(c) || OWN_COLUMNS[cte].includes(c)) &&
      !(cte === 'First Land-Based Receiving' && c === 'Event Date'),
  );

export const CTE_COLUMNS = Object.fromEntries(CTES.map((cte) => [cte, sheetColumnsOf(cte)])) as Readonly<
  Record<CriticalTrackingEvent, readonly FsmaColumn[]>
>;

/** Business name, location name, street, city, state and postal code, country, phone: what FDA calls a location description. */
function describePlace(place: PlaceFacts): string {
  const a = place.address ?? {};
  const cityLine = [a.city, [a.state, a.postalCode].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return [
    place.tradePartner,
    place.name,
    a.addressLine1,
    cityLine,
    a.country,
    place.phone ? `phone ${place.phone}` : null,
  ]
    .filter(Boolean)
    .join(', ');
}

/** What the rule asks of a landing (21 CFR 1.1335 (d), (f)), gathered from the lot's catch at vessels. */
interface Landing {
  line: CteLine;
  /** The lot's commissions at vessels before it came on land. */
  catches: CteLine[];
  /** Every line of the lot at vessels before it came on land: their documents (a catch certificate) go with the landing. */
  atSea: CteLine[];
}

const distinct = (values: (string | null)[]): string =>
  [...new Set(values.filter((v): v is string => Boolean(v)))].join('; ');
const dateOf = (time: Date): string => time.toISOString().slice(0, 10);

const NOT_LANDED = Object.fromEntries(LANDING_COLUMNS.map((c) => [c, ''])) as Readonly<Record<LandingColumn, string>>;

/** 21 CFR 1.1335 (d) and (f), and the vessels: catches are oldest first, so the first and last are the trip's range. */
function landingKdes({ line, catches }: Landing): Record<LandingColumn, string> {
  const vessels = catches.map((c) => c.location.vessel!);
  return {
    'Harvest Start Date': catches.length ? dateOf(catches[0].eventTime) : '',
    'Harvest End Date': catches.length ? dateOf(catches[catches.length - 1].eventTime) : '',
    'Harvest Location': distinct(catches.flatMap((c) => c.harvestAreas)),
    'Landing Date': dateOf(line.eventTime),
    'Vessel Name': distinct(vessels.map((v) => v.name)),
    'Vessel Identifier': distinct(vessels.map((v) => v.identifier)),
    'Vessel Flag State': distinct(vessels.map((v) => v.flagState)),
  };
}

/** The landing's own documents, then those recorded at sea, each once. */
const landingDocuments = ({ line, atSea }: Landing) => [
  ...new Map([line, ...atSea].flatMap((l) => l.documents).map((d) => [`${d.type}|${d.number}`, d])).values(),
];

/**
 * For each lot whose first line is at a vessel: the line that took it on land, when the first line of it
 * off the vessels is a receipt (or a commission) on land, and the catches (commissions at vessels) before.
 */
function landings(ordered: readonly CteLine[]): Map<string, Landing> {
  const found = new Map<string, Landing>();
  const seen = new Set<string>();
  const atSea = new Map<string, CteLine[]>();
  for (const line of ordered) {
    const lot = line.lotSerial;
    if (!seen.has(lot)) {
      seen.add(lot);
      if (line.location.vessel) atSea.set(lot, []);
    }
    const lines = atSea.get(lot);
    if (!lines) continue;
    if (line.location.vessel) {
      lines.push(line);
      continue;
    }
    atSea.delete(lot);
    if (line.type === 'Receive' || line.type === 'Commission')
      found.set(lot, { line, catches: lines.filter((l) => l.type === 'Commission'), atSea: lines });
  }
  return found;
}

/**
 * The spreadsheet's rows: one per CTE line that names a lot (a transform's outputs, not its inputs, which
 * appear in the output row's input lot codes), oldest first. The source of a lot code is where it was
 * assigned: the first commission or transform that produced it among the lines given, or for a catch its
 * first land-based receiver. Lines at vessels are no CTE: what they record (dates, catch areas, vessels,
 * documents) is in the landing's row.
 */
export function fsmaRows(lines: readonly CteLine[]): FsmaRow[] {
  const descriptions = new Map<string, string>();
  const described = (place: PlaceFacts | null): string => {
    if (!place) return '';
    let text = descriptions.get(place.id);
    if (text === undefined) descriptions.set(place.id, (text = describePlace(place)));
    return text;
  };
  const ordered = [...lines].sort(
    (a, b) =>
      a.eventTime.getTime() - b.eventTime.getTime() ||
      (a.lotSerial < b.lotSerial ? -1 : a.lotSerial > b.lotSerial ? 1 : 0),
  );
  const landed = landings(ordered);
  const landingLines = new Set([...landed.values()].map((l) => l.line));
  const sources = new Map<string, PlaceFacts>();
  for (const line of ordered) {
    const assigns =
      landingLines.has(line) ||
      (!line.location.vessel && (line.type === 'Commission' || (line.type === 'Transform' && line.role === 'output')));
    if (assigns && !sources.has(line.lotSerial)) sources.set(line.lotSerial, line.location);
  }
  return ordered
    .filter((line) => CTE_OF[line.type] && line.role !== 'input' && !line.location.vessel)
    .map((line) => {
      const landing = landingLines.has(line) ? landed.get(line.lotSerial)! : null;
      const source = sources.get(line.lotSerial) ?? null;
      const time = line.eventTime.toISOString();
      const documents = landing ? landingDocuments(landing) : line.documents;
      return {
        'Critical Tracking Event': landing ? 'First Land-Based Receiving' : CTE_OF[line.type],
        'Traceability Lot Code': line.lotSerial,
        'Traceability Lot Code Source Location Description': described(source),
        'Traceability Lot Code Source Reference': source?.gln ? `GLN ${source.gln}` : '',
        'Product Description': line.productName,
        Quantity: Number(line.quantity),
        'Unit of Measure': line.unit,
        'Event Date': time.slice(0, 10),
        'Event Time (UTC)': time.replace('.000Z', 'Z'),
        'Location Description': described(line.location),
        'Location Identifier (GLN)': line.location.gln ?? '',
        'Immediate Previous Source Location Description':
          line.type === 'Receive' && !landing ? described(line.source) : '',
        'Immediate Subsequent Recipient Location Description': line.type === 'Ship' ? described(line.destination) : '',
        'Input Traceability Lot Codes': line.inputLots.join('; '),
        ...(landing ? landingKdes(landing) : NOT_LANDED),
        'Reference Document Type': documents.map((d) => d.type).join('; '),
        'Reference Document Number': documents.map((d) => d.number).join('; '),
        'Record Keeper': line.account,
        'Event Id': line.eventId,
      };
    });
}
