import { createAccount, type TestAccount } from '../factories/accounts';
import { capture, epcisDocument, objectEvent } from '../factories/epcis';
import { fixtureJson } from '../helpers/epcis-xml';
import { client } from '../helpers/http';

type Event = Record<string, unknown> & { eventID: string; eventTime: string };
interface QueryDocument {
  epcisBody: { queryResults: { resultsBody: { eventList: Event[] } } };
}

/** GS1's published sensor examples, by their number: each holds one event. */
const EXAMPLES = ['1', '2', '3', '6', '7', '8', '9', '12'] as const;
/** Beside them, one of ours: a time PostgreSQL cannot hold (GS1's schema lets it through), rules on its report. */
type Example = (typeof EXAMPLES)[number] | 'odd';
const ODD = objectEvent({
  extra: {
    sensorElementList: [
      {
        sensorMetadata: { time: '2019-04-02T14:05:00+23:59' },
        sensorReport: [{ type: 'Temperature', value: -0.01, uom: 'CEL', bizRules: 'https://example.org/rules/report' }],
      },
    ],
  },
});

/**
 * GS1's sensor parameters of SimpleEventQuery over GS1's own sensor examples: what a cold chain asks
 * ("every event whose temperature went above 4 °C"), in any unit of temperature.
 */
describe('EPCIS sensor queries: GS1’s sensor parameters over GS1’s sensor examples', () => {
  let account: TestAccount;
  /** An example's event is known by its eventID, or (sent without one) by its eventTime. */
  const exampleOf = new Map<string, Example>();
  const api = () => client(account.key);

  /** The examples GET /epcis/events?<params> answers, in the order captured. */
  async function found(params: string): Promise<Example[]> {
    const response = await api().get<QueryDocument>(`/epcis/events?${params}`);
    expect({ params, status: response.status, body: response.status === 200 ? null : response.body }).toEqual({
      params,
      status: 200,
      body: null,
    });
    return response.body.epcisBody.queryResults.resultsBody.eventList.map(
      (event) => exampleOf.get(event.eventID) ?? exampleOf.get(event.eventTime) ?? 'not an example',
    ) as Example[];
  }

  beforeAll(async () => {
    account = await createAccount('epcis-sensors');
    for (const example of EXAMPLES) {
      const document = fixtureJson(`JSON/WithSensorData/SensorDataExample${example}.jsonld`);
      const [event] = document.epcisBody.eventList as Event[];
      exampleOf.set(event.eventID ?? event.eventTime, example);
      expect({ example, job: await capture(account.key, document) }).toMatchObject({
        example,
        job: { success: true, errors: [] },
      });
    }
    exampleOf.set(ODD.eventID!, 'odd');
    // An event with no sensor data: no sensor parameter finds it.
    expect(await capture(account.key, epcisDocument([ODD, objectEvent()]))).toMatchObject({ success: true });
  });

  it('EXISTS_sensorElementList, and the type, device, method, substance and rule of a report or its metadata', async () => {
    expect(await found('EXISTS_sensorElementList=true')).toEqual([...EXAMPLES, 'odd']);
    expect(await found('EQ_type=AbsoluteHumidity')).toEqual(['1', '2', '3', '8', '9']);
    // GS1's vocabulary in any of its spellings, and several types separated by |.
    expect(await found(`EQ_type=${encodeURIComponent('gs1:Speed|https://gs1.org/voc/Illuminance')}`)).toEqual([
      '1',
      '2',
    ]);
    expect(await found('EQ_type=example:Abc')).toEqual(['7']);
    // A device named by a sensor's metadata (1, 2, 8) or by one of its reports (7, 8).
    expect(await found('EQ_deviceID=urn:epc:id:giai:4000001.111')).toEqual(['1', '2', '7', '8']);
    expect(await found('EQ_deviceID=urn:epc:id:giai:4000001.116')).toEqual(['7']);
    expect(
      await found(`EQ_dataProcessingMethod=${encodeURIComponent('https://example.com/253/4012345000054987')}`),
    ).toEqual(['8']);
    expect(
      await found(`EQ_microorganism=${encodeURIComponent('https://www.ncbi.nlm.nih.gov/taxonomy/1126011')}`),
    ).toEqual(['8']);
    expect(
      await found(
        `EQ_chemicalSubstance=${encodeURIComponent('https://identifiers.org/inchikey:CZMRCDWAGMRECN-UGDNZRGBSA-N')}`,
      ),
    ).toEqual(['8']);
    expect(await found(`EQ_bizRules=${encodeURIComponent('https://example.org/253/4012345000054987')}`)).toEqual(['8']);
    expect(await found(`EQ_bizRules=${encodeURIComponent('https://example.com/253/4012345000054987')}`)).toEqual(['2']);
    expect(await found(`EQ_bizRules=${encodeURIComponent('https://example.org/rules/report')}`)).toEqual(['odd']);
  });

  it('a report’s string, boolean, hex binary and URI values', async () => {
    expect(await found('EQ_stringValue=someSensorOutput')).toEqual(['6', '8', '12']);
    expect(await found('EQ_stringValue=SomeString|nothing')).toEqual(['7']);
    expect(await found('EQ_booleanValue=true')).toEqual(['7', '9']);
    expect(await found('EQ_booleanValue=false')).toEqual([]);
    // Hex binary in either letter case.
    expect(await found('EQ_hexBinaryValue=f0f0f0')).toEqual(['7']);
    expect(await found(`EQ_uriValue=${encodeURIComponent('https://example.com/ErrorCode-A827')}`)).toEqual(['9']);
  });

  it('times of a sensor’s metadata or its reports, and its metadata’s start and end', async () => {
    // 7's metadata and 8's metadata and report say 14:00 +01:00.
    expect(await found('GE_time=2019-07-19T13:00:00Z')).toEqual(['7', '8']);
    expect(await found('GT_time=2019-07-19T13:00:00Z')).toEqual([]);
    expect(await found('LT_time=2019-04-02T13:10:00Z')).toEqual(['1']);
    expect(await found('GE_startTime=2019-04-02T00:00:00Z')).toEqual(['2']);
    expect(await found('LT_startTime=2019-04-02T00:00:00Z')).toEqual(['3', '6', '8', '12']);
    expect(await found('GE_endTime=2019-04-02T13:59:00Z')).toEqual(['3', '6', '8', '12']);
    expect(await found('LE_endTime=2019-04-02T13:55:00Z')).toEqual(['2']);
    // Times of any year: the odd event's, beyond what PostgreSQL holds, is no time at all.
    expect(await found('GE_time=0000-01-01T00:00:00Z')).toEqual(['1', '7', '8']);
    expect(await found('LT_time=9999-12-31T23:59:59-23:59')).toEqual(['1', '7', '8']);
  });

  it('compares a report’s values in the unit the parameter names, a temperature in any of CEL, FAH and KEL', async () => {
    expect(await found('GT_maxValue_CEL=13')).toEqual(['2', '3', '6', '8', '12']);
    expect(await found('GT_value_CEL=26.1')).toEqual(['1']);
    expect(await found('EQ_value_CEL=26|26.2')).toEqual(['1', '7']);
    expect(await found('LT_meanValue_CEL=20')).toEqual(['6', '8', '12']);
    expect(await found('GE_percValue_CEL=12.7')).toEqual(['6', '8', '12']);
    expect(await found('GE_percRank=50')).toEqual(['6', '8', '12']);
    expect(await found('LT_percRank=50')).toEqual([]);
    // 55 °F is 12.8 °C, 54.5 °F 12.5 °C; 80 °F is 26.7 °C; 299.25 K is 26.1 °C.
    expect(await found('GT_maxValue_FAH=55')).toEqual(['2', '3', '6', '8', '12']);
    expect(await found('LE_minValue_FAH=54.5')).toEqual(['3', '6', '8', '12']);
    expect(await found('GT_maxValue_FAH=80')).toEqual([]);
    expect(await found('GE_value_KEL=299.25')).toEqual(['1']);
    expect(await found('EQ_value_FAH=78.8')).toEqual(['1', '7']);
    // Compared exactly, in PostgreSQL's numeric: 31.982 °F is -0.01 °C, not -0.00999999999999.
    expect(await found('EQ_value_FAH=31.982')).toEqual(['odd']);
    // A spread is a difference: 0.5 °F is 0.28 °C (2's is 0.1, the others' 0.41), with no offset.
    expect(await found('GT_sDev_FAH=0.5')).toEqual(['6', '8', '12']);
    // Other units compare as sent.
    expect(await found('GE_value_A93=12.2')).toEqual(['1']);
    expect(await found('EQ_value_C35=0.05')).toEqual(['8']);
    expect(await found('GT_value_KMH=0')).toEqual(['1']);
    // The unit in any letter case.
    expect(await found('GT_maxValue_cel=13')).toEqual(['2', '3', '6', '8', '12']);
  });

  it('refuses a sensor parameter’s bad value with GS1’s QueryParameterException naming it', async () => {
    for (const params of [
      'GT_maxValue_CEL=warm',
      'EQ_value_CEL=1|warm',
      'EQ_booleanValue=yes',
      'GE_time=yesterday',
      'GE_percRank=high',
      'EXISTS_sensorElementList=maybe',
      'GT_maxValue_CELSIUS=4',
      'EQ_type=%7C',
    ]) {
      const refused = await api().get(`/epcis/events?${params}`);
      expect({ params, status: refused.status, type: refused.body.type }).toEqual({
        params,
        status: 400,
        type: 'epcisException:QueryParameterException',
      });
      expect(Object.keys(refused.body.errors)).toEqual([`/${params.split('=')[0]}`]);
    }
  });

  it('a named query holds sensor parameters, as numbers and lists too, and runs them', async () => {
    const created = await api().post('/epcis/queries', {
      name: 'warmTransport',
      query: {
        GT_maxValue_FAH: 55,
        EQ_type: ['Temperature'],
        EXISTS_sensorElementList: true,
        EQ_maxValue_CEL: [13.8, 26.2],
      },
    });
    expect(created.status).toBe(201);
    const run = await api().get<QueryDocument>('/epcis/queries/warmTransport/events');
    expect(run.status).toBe(200);
    expect(
      run.body.epcisBody.queryResults.resultsBody.eventList.map(
        (event) => exampleOf.get(event.eventID) ?? exampleOf.get(event.eventTime),
      ),
    ).toEqual(['2', '3', '6', '8', '12']);
    // GS1's query schema has an EXISTS_ parameter as an integer or null: given at all, it filters.
    for (const [name, exists] of [
      ['withSensorsNull', null],
      ['withSensorsOne', 1],
    ] as const) {
      expect((await api().post('/epcis/queries', { name, query: { EXISTS_sensorElementList: exists } })).status).toBe(
        201,
      );
      const events = await api().get<QueryDocument>(`/epcis/queries/${name}/events`);
      expect(events.body.epcisBody.queryResults.resultsBody.eventList).toHaveLength(EXAMPLES.length + 1);
    }
    const refused = await api().post('/epcis/queries', { name: 'bad', query: { GT_maxValue_FAH: 'warm' } });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toHaveProperty(['/query/GT_maxValue_FAH']);
  });

  it('another account’s sensor data is not found', async () => {
    const other = await createAccount('epcis-sensors-other');
    const response = await client(other.key).get<QueryDocument>('/epcis/events?EXISTS_sensorElementList=true');
    expect(response.status).toBe(200);
    expect(response.body.epcisBody.queryResults.resultsBody.eventList).toEqual([]);
  });
});
