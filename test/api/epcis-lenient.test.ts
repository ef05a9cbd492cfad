import { createAccount, type TestAccount } from '../factories/accounts';
import { capture, epcisDocument, eventIdOf, finishedJob, gs1Ids, lotOf, objectEvent } from '../factories/epcis';
import { sql } from '../helpers/db';
import { client } from '../helpers/http';

type Event = Record<string, unknown> & { eventID?: string };
const eventsOf = (body: { epcisBody: { queryResults: { resultsBody: { eventList: Event[] } } } }): Event[] =>
  body.epcisBody.queryResults.resultsBody.eventList;

/** Real clients (GDST's reference library among them) spell GS1 header values in their own letter case and send LE_/GT_ beside GE_/LT_. */
describe('EPCIS: lenient in what it accepts from real clients', () => {
  let account: TestAccount;
  const ids = gs1Ids();
  const lot = lotOf();
  const at = (hour: string) => `2024-03-01T${hour}:00:00.000Z`;
  const early = objectEvent({
    eventTime: at('10'),
    quantityList: [{ epcClass: ids.lgtin(lot), quantity: 10, uom: 'KGM' }],
    readPoint: ids.sgln(),
  });
  const middle = objectEvent({
    action: 'OBSERVE',
    bizStep: 'shipping',
    eventTime: at('11'),
    quantityList: [{ epcClass: ids.lgtin(lot), quantity: 4, uom: 'KGM' }],
    readPoint: ids.sgln(),
  });
  const late = objectEvent({
    action: 'OBSERVE',
    bizStep: 'receiving',
    eventTime: at('12'),
    quantityList: [{ epcClass: ids.lgtin(lot), quantity: 4, uom: 'KGM' }],
    readPoint: ids.sgln(),
  });
  const api = () => client(account.key);
  const idsOf = async (params: string) => {
    const response = await api().get(`/epcis/events?${params}`);
    expect({ params, status: response.status }).toEqual({ params, status: 200 });
    return eventsOf(response.body).map((e) => e.eventID);
  };

  beforeAll(async () => {
    account = await createAccount('epcis-lenient');
    expect(await capture(account.key, epcisDocument([early, middle, late]))).toMatchObject({ success: true });
  });

  it('takes GS1-EPC-Format in any letter case and answers with the canonical spelling', async () => {
    for (const spelling of ['ALWAYS_EPC_URN', 'always_epc_urn', 'Always_EPC_URN']) {
      const response = await api().get(`/epcis/events/${encodeURIComponent(early.eventID as string)}`, {
        'GS1-EPC-Format': spelling,
      });
      expect({ spelling, status: response.status }).toEqual({ spelling, status: 200 });
      expect(response.headers.get('gs1-epc-format')).toBe('Always_EPC_URN');
      expect(eventsOf(response.body)[0].quantityList).toEqual([{ epcClass: ids.lgtin(lot), quantity: 10, uom: 'KGM' }]);
    }
    const digitalLink = await api().get(`/epcis/events/${encodeURIComponent(early.eventID as string)}`, {
      'GS1-EPC-Format': 'ALWAYS_GS1_DIGITAL_LINK',
    });
    expect(digitalLink.headers.get('gs1-epc-format')).toBe('Always_GS1_Digital_Link');
    expect(eventsOf(digitalLink.body)[0].quantityList).toEqual([
      { epcClass: `https://id.gs1.org/01/${ids.gtin}/10/${lot}`, quantity: 10, uom: 'KGM' },
    ]);
    const unknown = await api().get('/epcis/events', { 'GS1-EPC-Format': 'Always_Something' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toMatch(/GS1-EPC-Format/);
  });

  it('takes GS1-CBV-XML-Format in any letter case and names the standard spelling; JSON-LD answers keep CBV bare words, as GS1’s JSON schema requires', async () => {
    const bizStepOf = async (spelling: string | undefined) => {
      const response = await api().get(
        `/epcis/events/${encodeURIComponent(middle.eventID as string)}`,
        spelling ? { 'GS1-CBV-XML-Format': spelling } : {},
      );
      expect({ spelling, status: response.status }).toEqual({ spelling, status: 200 });
      return { bizStep: eventsOf(response.body)[0].bizStep, header: response.headers.get('gs1-cbv-xml-format') };
    };
    expect(await bizStepOf('ALWAYS_URN')).toEqual({ bizStep: 'shipping', header: 'Always_URN' });
    expect(await bizStepOf('Always_URN')).toEqual({ bizStep: 'shipping', header: 'Always_URN' });
    expect(await bizStepOf('always_web_uri')).toEqual({ bizStep: 'shipping', header: 'Always_Web_URI' });
    expect(await bizStepOf('NEVER_TRANSLATES')).toEqual({ bizStep: 'shipping', header: 'Never_Translates' });
    expect(await bizStepOf(undefined)).toEqual({ bizStep: 'shipping', header: null });
    const unknown = await api().get('/epcis/events', { 'GS1-CBV-XML-Format': 'Sometimes' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toMatch(/GS1-CBV-XML-Format/);
  });

  it('takes GS1-Capture-Error-Behaviour in any letter case', async () => {
    const again = objectEvent({
      eventID: early.eventID as string,
      quantityList: [{ epcClass: ids.lgtin(lot), quantity: 1 }],
    });
    const fresh = objectEvent({
      eventID: eventIdOf(),
      eventTime: at('13'),
      quantityList: [{ epcClass: ids.lgtin(lot), quantity: 1 }],
    });
    const job = await capture(account.key, epcisDocument([again, fresh]), { 'GS1-Capture-Error-Behaviour': 'PROCEED' });
    expect(job).toMatchObject({
      captureErrorBehaviour: 'proceed',
      success: false,
      errors: [expect.objectContaining({ eventID: early.eventID })],
    });
    const refused = await api().post('/epcis/capture', epcisDocument([objectEvent()]), {
      'GS1-Capture-Error-Behaviour': 'sometimes',
    });
    expect(refused.status).toBe(400);
  });

  it('takes LE_ and GT_ beside GE_ and LT_ for eventTime and recordTime', async () => {
    const [e, m, l] = [early, middle, late].map((event) => event.eventID);
    expect(await idsOf(`LE_eventTime=${at('11')}`)).toEqual([e, m]);
    expect(await idsOf(`LT_eventTime=${at('11')}`)).toEqual([e]);
    expect(await idsOf(`GT_eventTime=${at('11')}&LE_eventTime=${at('12')}`)).toEqual([l]);
    expect(await idsOf(`GT_eventTime=${at('11')}&LT_eventTime=${at('13')}`)).toEqual([l]);
    expect(await idsOf(`GE_eventTime=${at('11')}&LE_eventTime=${at('12')}`)).toEqual([m, l]);
    const recorded = (await api().get(`/epcis/events/${encodeURIComponent(middle.eventID as string)}`)).body;
    const recordTime = eventsOf(recorded)[0].recordTime as string;
    // The three were recorded together, so at one recordTime.
    expect(await idsOf(`LE_recordTime=${encodeURIComponent(recordTime)}&LE_eventTime=${at('12')}`)).toEqual([e, m, l]);
    expect(await idsOf(`GT_recordTime=${encodeURIComponent(recordTime)}&LE_eventTime=${at('12')}`)).toEqual([]);
    expect(await idsOf(`GE_recordTime=${encodeURIComponent(recordTime)}&LE_eventTime=${at('12')}`)).toEqual([e, m, l]);
    expect(await idsOf(`LT_recordTime=${encodeURIComponent(recordTime)}&LE_eventTime=${at('12')}`)).toEqual([]);
    const bad = await api().get('/epcis/events?LE_eventTime=yesterday');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(['/LE_eventTime']);
  });

  it('captures EPCIS 1.2 XML with a field of no namespace in its extension/extension slot, leaving the field out with a warning', async () => {
    const eventID = eventIdOf();
    const xml = `<epcis:EPCISDocument xmlns:epcis="urn:epcglobal:epcis:xsd:1" xmlns:ex="https://ns.example.com/" schemaVersion="1.2" creationDate="2024-01-01T00:00:00Z">
      <EPCISBody><EventList><ObjectEvent>
        <eventTime>2024-03-01T10:00:00.000Z</eventTime><eventTimeZoneOffset>+00:00</eventTimeZoneOffset>
        <baseExtension><eventID>${eventID}</eventID></baseExtension>
        <epcList/><action>ADD</action><bizStep>urn:epcglobal:cbv:bizstep:commissioning</bizStep>
        <readPoint><id>${ids.sgln()}</id></readPoint>
        <extension>
          <quantityList><quantityElement><epcClass>${ids.lgtin(lotOf())}</epcClass><quantity>5</quantity><uom>KGM</uom></quantityElement></quantityList>
          <extension><myField>kept apart</myField></extension>
        </extension>
        <ex:note>kept</ex:note>
      </ObjectEvent></EventList></EPCISBody></epcis:EPCISDocument>`;
    const accepted = await api().post('/epcis/capture', xml, { 'Content-Type': 'application/xml' });
    expect(accepted.status).toBe(202);
    const job = await finishedJob(account.key, accepted.headers.get('location')!);
    expect(job).toMatchObject({ success: true, errors: [] });
    expect(job.warnings).toEqual([
      {
        type: 'FieldLeftOut',
        index: 0,
        eventID,
        pointer: '/epcis:EPCISDocument/EPCISBody/EventList/ObjectEvent/extension/extension/myField',
        title: 'A field of the XML was left out of the captured event.',
        detail: expect.stringContaining('myField has no namespace'),
      },
    ]);
    const [stored] = eventsOf((await api().get(`/epcis/events/${encodeURIComponent(eventID)}`)).body);
    expect(stored).toMatchObject({ eventID, 'ex:note': 'kept' });
    expect(JSON.stringify(stored)).not.toContain('myField');

    // A job stored before warnings had a detail held the sentence as its title: it is answered as today's.
    await sql().query(
      `UPDATE batches SET request = jsonb_set(request, '{kdeWarnings,0}',
         (request #> '{kdeWarnings,0}') - 'detail' || jsonb_build_object('title', request #> '{kdeWarnings,0,detail}'))
       WHERE id = $1`,
      [job.captureID],
    );
    const legacy = await api().get(`/epcis/capture/${job.captureID}`);
    expect(legacy.body.warnings).toEqual(job.warnings);
  });
});
