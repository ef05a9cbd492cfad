/** The inline master data a bench's events carry: a product tracked by lot, counted in kilograms. */
export const benchProduct = (Id: string, Name: string) => ({
  Id,
  Details: { Name, SimpleUnitOfMeasurement: 'kg', SharingPolicy: 'Open', ProductIdentifierType: 'Lot' },
});

/** A location of the bench's own account. */
export const benchLocation = (Id: string, Name: string) => ({
  Id,
  Details: { Name, TradePartner: { Id: 'SELF', Name: 'Bench Co', ConnectionType: 'SELF' } },
});
