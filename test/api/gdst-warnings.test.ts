import { createAccount, type TestAccount } from '../factories/accounts';
import { jsonCommission, jsonInstance, jsonTransform, urnOf } from '../factories/json-events';
import { commission, locationPayload, productPayload, uid } from '../factories/trace-events';
import { client } from '../helpers/http';

const vesselLocation = (vessel: Record<string, string>) => {
  const base = locationPayload(uid('VESSEL'), { name: 'FV Nordkapp' });
  return {
    ...base,
    Details: { ...base.Details, CaptainsName: 'Kari', ContactInformation: { Name: 'Kari' }, Vessel: vessel },
  };
};
const cod = productPayload(uid('COD'), 'Open', 'Atlantic cod');
const catchLine = () => [{ product: cod, lot: uid('CATCH'), quantity: 500 }];

describe('GDST KDE warnings on event results', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await createAccount('gdst');
  });

  it('a wild-catch commission lacking catch data and a certificate number is stored, with a warning for each missing KDE', async () => {
    const event = commission(vesselLocation({ VesselName: 'FV Nordkapp' }), '2024-08-01T06:00:00', catchLine(), {
      CertificationList: [{ Type: 'urn:gdst:certType:harvestCoC', Standard: 'MSC', Agency: 'MSC', Value: 'certified' }],
    });
    const response = await client(account.key).post('/Integration/Events', { Events: [event] });
    expect(response.status).toBe(200);
    expect(response.body.result[0].status).toBe('Created');
    const warnings = response.body.result[0].warnings as { code: string; field: string; message: string }[];
    expect(warnings.map((w) => w.field)).toEqual([
      'Events[0].CertificationList[0].Identification',
      'Events[0].Location.Details.Vessel.VesselFlagState',
      'Events[0].Location.Details.Vessel.IMONumber',
      'Events[0].CustomProperties',
      'Events[0].CustomProperties',
      'Events[0].CertificationList',
    ]);
    expect(warnings.every((w) => w.code === 'MissingGdstKde')).toBe(true);
    expect(warnings[3].message).toContain('catch area');

    // The async status of the same batch carries the same result.
    const status = await client(account.key).get(`/Integration/Events/async/${response.body.batchId}`);
    expect(status.body.result).toEqual(response.body.result);
  });

  it('a stored vessel named by Id gets the same warnings as when sent with its Details, and its stored data decides', async () => {
    const vessel = vesselLocation({ VesselName: 'FV Nordkapp' });
    const lacking = { CertificationList: [{ Type: 'urn:gdst:certType:fishingAuth', Identification: 'FA-1' }] };
    const inline = await client(account.key).post('/Integration/Events', {
      Events: [commission(vessel, '2024-08-01T06:00:00', catchLine(), lacking)],
    });
    expect(inline.status).toBe(200);
    const byId = await client(account.key).post('/Integration/Events', {
      Events: [commission({ Id: vessel.Id }, '2024-08-02T06:00:00', catchLine(), lacking)],
    });
    expect(byId.status).toBe(200);
    expect(byId.body.result[0].warnings).toEqual(inline.body.result[0].warnings);
    expect((byId.body.result[0].warnings as { field: string }[]).map((w) => w.field)).toEqual([
      'Events[0].Location.Details.Vessel.VesselFlagState',
      'Events[0].Location.Details.Vessel.IMONumber',
      'Events[0].CustomProperties',
      'Events[0].CustomProperties',
    ]);

    // Details sent again for a stored location change nothing (the stored one is used): nor do they change its warnings.
    const resent = {
      ...vessel,
      Details: {
        ...vessel.Details,
        Vessel: { VesselName: 'FV Nordkapp', VesselFlagState: 'NO', IMONumber: '9876543' },
      },
    };
    const again = await client(account.key).post('/Integration/Events', {
      Events: [commission(resent, '2024-08-03T06:00:00', catchLine(), lacking)],
    });
    expect(again.body.result[0].warnings).toEqual(inline.body.result[0].warnings);
    // A land location sent with Vessel details once it is stored: no wild catch.
    const plant = locationPayload(uid('PLANT'));
    expect(
      (
        await client(account.key).post('/Integration/Events', {
          Events: [commission(plant, '2024-08-01T06:00:00', catchLine())],
        })
      ).status,
    ).toBe(200);
    const posing = { ...plant, Details: { ...plant.Details, Vessel: { VesselName: 'FV Ghost' } } };
    const onLand = await client(account.key).post('/Integration/Events', {
      Events: [commission(posing, '2024-08-02T06:00:00', catchLine())],
    });
    expect(onLand.body.result[0]).not.toHaveProperty('warnings');
  });

  it('a complete wild catch and a commission on land have no warnings', async () => {
    const complete = commission(
      vesselLocation({ VesselName: 'FV Nordkapp', VesselFlagState: 'NO', IMONumber: '9876543' }),
      '2024-08-01T06:00:00',
      catchLine(),
      {
        CustomProperties: [
          { Name: 'catchArea', Namespace: 'gdst', Value: 'FAO 27' },
          { Name: 'fishingGearTypeCode', Namespace: 'gdst', Value: '03.12' },
        ],
        CertificationList: [
          {
            Type: 'urn:gdst:certType:fishingAuth',
            Standard: 'NO',
            Agency: 'Fiskeridirektoratet',
            Value: 'licensed',
            Identification: 'FA-1',
          },
        ],
      },
    );
    const onLand = commission(locationPayload(uid('PLANT')), '2024-08-01T06:00:00', catchLine());
    const response = await client(account.key).post('/Integration/Events', { Events: [complete, onLand] });
    expect(response.status).toBe(200);
    for (const result of response.body.result) expect(result).not.toHaveProperty('warnings');
  });
});

describe('GDST KDE warnings on POST /Integration/JSON answers', () => {
  let account: TestAccount;
  const at = { locationUrn: urnOf('location'), partnerUrn: urnOf('party') };
  const productUrn = urnOf('product');
  const lot = uid('LOT');
  const numberless = {
    CertificationType: 'urn:gdst:certType:harvestCoC',
    CertificationStandard: 'MSC',
    CertificationAgency: 'MSC',
    CertificationValue: 'Certified',
  };
  beforeAll(async () => {
    account = await createAccount('gdst-json');
  });

  it('a commission whose certificate has no number is created, its event entry warning of it; a complete one has none', async () => {
    const lacking = { ...jsonCommission(at, jsonInstance(productUrn, lot, 100)), CertificationList: [numberless] };
    const complete = jsonCommission(at, jsonInstance(productUrn, uid('LOT'), 10));
    const response = await client(account.key).post('/Integration/JSON', { Events: [lacking, complete] });
    expect(response.status).toBe(200);
    const [first, second] = response.body.result.events;
    expect(first.status).toBe('Created');
    expect(first.warnings).toEqual([
      {
        code: 'MissingGdstKde',
        field: 'Events[0].CertificationList[0].Identification',
        message:
          'GDST asks for the certificate’s identification (its number) (Events[0].CertificationList[0].Identification); the event was stored without it.',
      },
    ]);
    expect(second).not.toHaveProperty('warnings');
  });

  it('a transform batch answers Success with the warnings of its events beside it, and without them when there are none', async () => {
    const output = jsonInstance(urnOf('product'), uid('OUT'), 5);
    const lacking = {
      ...jsonTransform(at, [jsonInstance(productUrn, lot, 5)], [output]),
      CertificationList: [{ ...numberless, CertificationType: '' }],
    };
    const response = await client(account.key).post('/Integration/JSON', { Events: [lacking] });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      result: 'Success',
      message: null,
      errors: [],
      warnings: [
        expect.objectContaining({ code: 'MissingGdstKde', field: 'Events[0].CertificationList[0].Identification' }),
        expect.objectContaining({ code: 'MissingGdstKde', field: 'Events[0].CertificationList[0].Type' }),
      ],
    });
    const complete = jsonTransform(
      at,
      [jsonInstance(productUrn, lot, 5)],
      [jsonInstance(output.ParentProduct.Urn, output.LotSerial, 5)],
    );
    const clean = await client(account.key).post('/Integration/JSON', { Events: [complete] });
    expect(clean.body).toEqual({ result: 'Success', message: null, errors: [] });
  });
});
