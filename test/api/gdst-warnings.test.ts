import { createAccount, type TestAccount } from '../factories/accounts';
import { commission, locationPayload, productPayload, uid } from '../factories/trace-events';
import { client } from '../helpers/http';

const vesselLocation = (vessel: Record<string, string>) => {
  const base = locationPayload(uid('VESSEL'), { name: 'FV Nordkapp' });
  return { ...base, Details: { ...base.Details, CaptainsName: 'Kari', ContactInformation: { Name: 'Kari' }, Vessel: vessel } };
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
        CertificationList: [{ Type: 'urn:gdst:certType:fishingAuth', Standard: 'NO', Agency: 'Fiskeridirektoratet', Value: 'licensed', Identification: 'FA-1' }],
      },
    );
    const onLand = commission(locationPayload(uid('PLANT')), '2024-08-01T06:00:00', catchLine());
    const response = await client(account.key).post('/Integration/Events', { Events: [complete, onLand] });
    expect(response.status).toBe(200);
    for (const result of response.body.result) expect(result).not.toHaveProperty('warnings');
  });
});
