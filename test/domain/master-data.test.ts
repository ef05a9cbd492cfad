import {
  addressIssues,
  locationCreateIssues,
  locationIdIssues,
  locationUpdate,
  mergeAddress,
  productCreateIssues,
  productUpdateAttributes,
  UnknownUnitError,
} from '../../domain/master-data';
import { normaliseUnit } from '../../domain/units';
import { buildLocationPayload, buildProductPayload, buildVesselPayload } from '../factories/master-data';

describe('location rules', () => {
  it('accept valid locations and vessels', () => {
    expect(locationCreateIssues([buildLocationPayload(), buildVesselPayload()])).toEqual([]);
  });

  it('need City, Country and AddressLine1 unless GeoCoordinates are given', () => {
    expect(addressIssues({ City: 'Oslo' }, 'A').map((i) => i.field)).toEqual(['A.Country', 'A.AddressLine1']);
    expect(addressIssues({ City: ' ', Country: 'NO', AddressLine1: 'x' }, 'A').map((i) => i.field)).toEqual(['A.City']);
    expect(addressIssues({ GeoCoordinates: { Latitude: 1, Longitude: 2 } }, 'A')).toEqual([]);
  });

  it('take the id from id or Id, once per request, and refuse two different ones', () => {
    const prefix = (i: number) => `L[${i}]`;
    expect(locationIdIssues([{ id: 'a' }, { Id: 'b' }], prefix)).toEqual([]);
    expect(locationIdIssues([{ id: 'a' }, { Id: 'a' }], prefix)).toEqual([
      { index: 1, id: 'a', field: 'L[1].id', message: expect.stringContaining('L[0]') },
    ]);
    expect(locationIdIssues([{ id: 'a', Id: 'b' }], prefix)).toHaveLength(1);
    expect(locationIdIssues([{}], prefix)).toEqual([
      { index: 0, id: null, field: 'L[0].id', message: 'L[0].id is required.' },
    ]);
  });

  it('want a contact and SELF, SUPPLIER or BUYER for vessels', () => {
    const vessel = buildVesselPayload({
      Details: { ContactInformation: undefined, TradePartner: { ConnectionType: 'OTHER' } },
    });
    expect(locationCreateIssues([vessel]).map((i) => i.field)).toEqual([
      'Locations[0].Details.TradePartner.ConnectionType',
      'Locations[0].Details.ContactInformation',
    ]);
  });
});

describe('location updates', () => {
  const stored = {
    address: {
      city: 'Oslo',
      state: null,
      country: 'Norway',
      addressLine1: 'Kaigata 1',
      addressLine2: null,
      postalCode: null,
      geoCoordinates: null,
      displayAddress: 'Kaigata 1, Oslo, Norway',
    },
    contact: { name: 'Kari', phone: null, email: 'k@example.org' },
    vessel: null,
  };

  it('lay sent address fields over the stored ones and recompute the display address', () => {
    expect(mergeAddress(stored.address, { City: 'Bergen' })).toEqual({
      City: 'Bergen',
      Country: 'Norway',
      AddressLine1: 'Kaigata 1',
    });
    expect(mergeAddress(stored.address, { DisplayAddress: 'Here' })).toMatchObject({
      City: 'Oslo',
      DisplayAddress: 'Here',
    });
  });

  it('change only what the body carries, and vessel fields only on vessels', () => {
    const { attributes } = locationUpdate(
      stored,
      { Name: 'New', ContactInformation: { Phone: '1' }, CaptainsName: 'x' },
      false,
    );
    expect(attributes).toEqual({ name: 'New', contact: { name: 'Kari', phone: '1', email: 'k@example.org' } });
  });
});

describe('product rules', () => {
  it('refuse a repeated id and an unknown unit, listing what is accepted', () => {
    const product = buildProductPayload();
    const issues = productCreateIssues([
      product,
      { ...product },
      buildProductPayload({ Details: { SimpleUnitOfMeasurement: 'cubits' } }),
    ]);
    expect(issues.map((i) => [i.index, i.field])).toEqual([
      [1, 'Products[1].Id'],
      [2, 'Products[2].Details.SimpleUnitOfMeasurement'],
    ]);
    expect(issues[1].message).toMatch(/KGM.*LBR/);
  });

  it('normalise units on update and keep absent fields out', () => {
    expect(productUpdateAttributes({ SimpleUnitOfMeasurement: 'Lbs.', UnitQuantity: 1.5 })).toEqual({
      unitOfMeasure: 'LBR',
      unitQuantity: '1.5',
    });
    expect(() => productUpdateAttributes({ SimpleUnitOfMeasurement: 'cubits' })).toThrow(UnknownUnitError);
  });

  it.each([
    ['KGM', 'KGM'],
    ['kgs', 'KGM'],
    ['LB', 'LBR'],
    ['pound', 'LBR'],
    ['EA', 'EA'],
    ['H87', 'H87'],
    ['ONZ', 'ONZ'],
  ])('know the unit %s as %s', (unit, code) => {
    expect(normaliseUnit(unit)).toBe(code);
  });
});
