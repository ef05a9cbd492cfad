/**
 * The FDA's electronic sortable spreadsheet (FSMA 204, 21 CFR 1.1455(c)(3)(ii)): one row per Critical
 * Tracking Event and traceability lot, with the Key Data Elements 21 CFR 1.1325-1.1350 name for that
 * event, under the KDE names as column headers. Pure: rows in, rows out.
 */

type CriticalTrackingEvent = 'Initial Packing' | 'Shipping' | 'Receiving' | 'Transformation';

/** Our event types that are CTEs; aggregation, observation and decommissioning are not. */
const CTE_OF: Readonly<Record<string, CriticalTrackingEvent>> = {
  Commission: 'Initial Packing',
  Ship: 'Shipping',
  Receive: 'Receiving',
  Transform: 'Transformation',
};

export interface PlaceFacts {
  /** Same id, same place: its description is made once. */
  id: string;
  tradePartner: string;
  name: string;
  gln: string | null;
  address: { addressLine1?: string | null; city?: string | null; state?: string | null; postalCode?: string | null; country?: string | null } | null;
  phone: string | null;
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
}

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
  'Reference Document Type',
  'Reference Document Number',
  'Record Keeper',
  'Event Id',
] as const;

type FsmaColumn = (typeof FSMA_COLUMNS)[number];
/** Times are ISO 8601 UTC text: they sort as text in the order they happened, in any spreadsheet program. */
export type FsmaRow = Record<FsmaColumn, string | number>;

/** Business name, location name, street, city, state and postal code, country, phone: what FDA calls a location description. */
function describePlace(place: PlaceFacts): string {
  const a = place.address ?? {};
  const cityLine = [a.city, [a.state, a.postalCode].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return [place.tradePartner, place.name, a.addressLine1, cityLine, a.country, place.phone ? `phone ${place.phone}` : null].filter(Boolean).join(', ');
}

/**
 * The spreadsheet's rows: one per CTE line that names a lot (a transform's outputs, not its inputs, which
 * appear in the output row's input lot codes), oldest first. The source of a lot code is where it was
 * assigned: the first commission or transform that produced it among the lines given.
 */
export function fsmaRows(lines: readonly CteLine[]): FsmaRow[] {
  const descriptions = new Map<string, string>();
  const described = (place: PlaceFacts | null): string => {
    if (!place) return '';
    let text = descriptions.get(place.id);
    if (text === undefined) descriptions.set(place.id, (text = describePlace(place)));
    return text;
  };
  const ordered = [...lines].sort((a, b) => a.eventTime.getTime() - b.eventTime.getTime() || (a.lotSerial < b.lotSerial ? -1 : a.lotSerial > b.lotSerial ? 1 : 0));
  const sources = new Map<string, PlaceFacts>();
  for (const line of ordered) {
    if ((line.type === 'Commission' || (line.type === 'Transform' && line.role === 'output')) && !sources.has(line.lotSerial)) sources.set(line.lotSerial, line.location);
  }
  return ordered
    .filter((line) => CTE_OF[line.type] && line.role !== 'input')
    .map((line) => {
      const source = sources.get(line.lotSerial) ?? null;
      const time = line.eventTime.toISOString();
      return {
        'Critical Tracking Event': CTE_OF[line.type],
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
        'Immediate Previous Source Location Description': line.type === 'Receive' ? described(line.source) : '',
        'Immediate Subsequent Recipient Location Description': line.type === 'Ship' ? described(line.destination) : '',
        'Input Traceability Lot Codes': line.inputLots.join('; '),
        'Reference Document Type': line.documents.map((d) => d.type).join('; '),
        'Reference Document Number': line.documents.map((d) => d.number).join('; '),
        'Record Keeper': line.account,
        'Event Id': line.eventId,
      };
    });
}
