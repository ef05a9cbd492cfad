/**
 * What one request may carry: one definition of each bound, used by the request schemas (so the
 * OpenAPI document states them) and by the JSON body reader (for free-form objects no schema spells out).
 */
export const LIMITS = {
  /** A JSON body, as read from the socket (events with inline master data run to a few MB). */
  jsonBodyBytes: 25 * 1024 * 1024,
  /** Objects and arrays inside one another; the deepest documented shape needs about ten. */
  depth: 32,
  /** Ids, lot and serial numbers, codes: what callers use as keys. */
  idLength: 200,
  /** Names, URNs, free text fields. */
  textLength: 1000,
  /** Any string anywhere in a body, also inside free-form objects (CustomProperties, Vessel, ...). */
  anyStringLength: 10_000,
  /** Elements of an array without a bound of its own (lists of master data, lines of an event). */
  arrayItems: 1000,
  /** Quantities: exact in NUMERIC and in the JSON numbers callers send (15 significant digits). */
  quantity: 1_000_000_000_000,
} as const;
