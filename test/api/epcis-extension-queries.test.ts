import { createAccount, type TestAccount } from '../factories/accounts';
import { capture, EPCIS_CONTEXT, epcisDocument, finishedJob, objectEvent } from '../factories/epcis';
import { fixture, fixtureJson } from '../helpers/epcis-xml';
import { client } from '../helpers/http';

type Event = Record<string, unknown> & { type: string; eventID?: string };
interface QueryDocument {
  epcisBody: { queryResults: { resultsBody: { eventList: Event[] } } };
}

/**
 * The events captured, by name: GS1's JSON-LD event of every field (`gs1`, extensions ext1: to ext3: on the
 * event, in its ILMD and its sensor data), GS1's XML event with extensions in every part (`xml`, namespace
 * example: and others), ours naming ext1's namespace by another prefix (`renamed`), and one without any.
 */
type Name = 'gs1' | 'xml' | 'renamed' | 'plain' | 'declared' | 'odd';
const EXT1 = 'http://example.com/ext1/';
const RENAMED = objectEvent({
  extra: { 'e1:float': 30, 'e1:time': '2014-01-01T00:00:00Z', ilmd: { 'e1:int': { '@value': '7', 'e1:unit': 'EA' } } },
});
const PLAIN = objectEvent();
/** Fields no comparison can read (a month 13), empty ones, and a name that starts with a digit. */
const ODD = objectEvent({
  eventTime: '2024-03-01T11:00:00.000-05:00',
  extra: { 'e1:time': '2024-13-01T00:00:00Z', 'e1:empty': '', 'e1:none': [], 'e1:nothing': {}, 'e1:1st': 'yes' },
});
/** Declared erroneous by a later document, whose own prefix names its extension's namespace. */
const DECLARED = objectEvent({ eventTime: '2024-03-02T10:00:00.000-05:00' });
const DECLARATIONS = 'https://ns.example.com/declarations/';

/**
 * GS1's extension parameters of SimpleEventQuery (EQ_, GT_ and the like, EXISTS_, with INNER_ and a part's
 * infix: ILMD_, SENSORELEMENT_, readPoint_, ...) over GS1's own examples in both bindings: a buyer asking
 * for "every lot caught in this area", as the catch's ILMD says it.
 */
describe('EPCIS extension queries: GS1’s extension parameters over GS1’s examples', () => {
  let account: TestAccount;
  const nameOf = new Map<string, Name>();

  /** The events GET /epcis/events?<params> answers, in the order captured. */
  async function found(params: string, headers: Record<string, string> = {}, key = account.key): Promise<Name[]> {
    const response = await client(key).get<QueryDocument>(`/epcis/events?${params}`, headers);
    expect({ params, status: response.status, body: response.status === 200 ? null : response.body }).toEqual({
      params,
      status: 200,
      body: null,
    });
    return response.body.epcisBody.queryResults.resultsBody.eventList.map(
      (event) => nameOf.get(event.eventID ?? event.type) ?? (event.eventID as Name),
    );
  }
  const q = encodeURIComponent;
  const EXT1_DECLARED = { 'GS1-Extensions': `ext1=${EXT1}` };

  beforeAll(async () => {
    account = await createAccount('epcis-extensions');
    const gs1 = fixtureJson('JSON/WithFullCombinationOfFields/object_event_all_possible_fields.jsonld');
    nameOf.set(gs1.epcisBody.eventList[0].eventID as string, 'gs1');
    expect(await capture(account.key, gs1)).toMatchObject({ success: true, errors: [] });
    // GS1's XML event has no eventID: it is the only TransformationEvent.
    nameOf.set('TransformationEvent', 'xml');
    const xml = await client(account.key).post('/epcis/capture', fixture('XML/WithExtension/TransformationEvent.xml'), {
      'Content-Type': 'application/xml',
    });
    expect(xml.status).toBe(202);
    expect(await finishedJob(account.key, xml.headers.get('location')!)).toMatchObject({ success: true, errors: [] });
    nameOf.set(RENAMED.eventID!, 'renamed');
    nameOf.set(PLAIN.eventID!, 'plain');
    nameOf.set(DECLARED.eventID!, 'declared');
    nameOf.set(ODD.eventID!, 'odd');
    const ours = { ...epcisDocument([RENAMED, PLAIN, DECLARED, ODD]), '@context': [...EPCIS_CONTEXT, { e1: EXT1 }] };
    expect(await capture(account.key, ours)).toMatchObject({ success: true, errors: [] });
    const errorDeclaration = { declarationTime: '2024-03-03T09:00:00.000Z', 'd2:inspector': 'Inspector 7' };
    const declaration = {
      ...epcisDocument([{ ...DECLARED, errorDeclaration }]),
      '@context': [...EPCIS_CONTEXT, { d2: DECLARATIONS }],
    };
    expect(await capture(account.key, declaration)).toMatchObject({ success: true, errors: [] });
  });

  it('EQ_ of an event’s own extension field: its prefix as the documents wrote it, or its namespace as GS1-Extensions declares it', async () => {
    expect(await found(`${q('EQ_ext1:string')}=string`)).toEqual(['gs1']);
    // A repeated field (a JSON array) matches on any of its values; a number or a time as one.
    expect(await found(`${q('EQ_ext1:array')}=stringInArray`)).toEqual(['gs1']);
    expect(await found(`${q('EQ_ext1:float')}=20.0`)).toEqual(['gs1']);
    expect(await found(`${q('EQ_ext1:time')}=${q('2013-06-08T16:58:56.591+02:00')}`)).toEqual(['gs1']);
    // Undeclared, ext1 is the prefix as written: ours calls that namespace e1.
    expect(await found(`${q('EQ_ext1:float')}=20|30`)).toEqual(['gs1']);
    expect(await found(`${q('EQ_ext1:float')}=20|30`, EXT1_DECLARED)).toEqual(['gs1', 'renamed']);
    expect(await found(`${q('EQ_x:float')}=20|30`, { 'GS1-Extensions': `x=${EXT1}` })).toEqual(['gs1', 'renamed']);
    // A declared prefix matches its namespace only: ext1's fields are not another namespace's.
    expect(await found(`${q('EQ_ext1:float')}=20|30`, { 'GS1-Extensions': 'ext1=http://other.example/' })).toEqual([]);
    expect(await found(`${q('EQ_x:string')}=string`, { 'GS1-Extensions': 'x=http://example.com/ext2/' })).toEqual([]);
    expect(await found(`${q('EQ_ext1:1st')}=yes`, EXT1_DECLARED)).toEqual(['odd']);
    // A field nested in an extension is not the event's own.
    expect(await found(`${q('EQ_ext2:string')}=stringInObject`)).toEqual([]);
    // XML: an element's own text, and one of its attributes' elements.
    expect(await found(`${q('EQ_example4:otherThings')}=${q('some text')}`)).toEqual(['xml']);
    expect(
      await found(`${q('EQ_ex:otherThings')}=${q('some text')}`, {
        'GS1-Extensions': 'ex=http://ns.example.com/epcis-4',
      }),
    ).toEqual(['xml']);
  });

  it('GT_, GE_, LT_ and LE_ compare a number or a time; anything else is a 400 naming the parameter', async () => {
    expect(await found(`${q('GT_ext1:float')}=19`)).toEqual(['gs1']);
    expect(await found(`${q('GT_ext1:float')}=20`)).toEqual([]);
    expect(await found(`${q('GE_ext1:float')}=20`, EXT1_DECLARED)).toEqual(['gs1', 'renamed']);
    expect(await found(`${q('LT_ext1:float')}=25`, EXT1_DECLARED)).toEqual(['gs1']);
    expect(await found(`${q('GT_ext1:time')}=${q('2013-06-08T14:58:56Z')}`, EXT1_DECLARED)).toEqual(['gs1', 'renamed']);
    // A time's + sent unencoded reads as a space, and is read as a +.
    expect(await found(`${q('LE_ext1:time')}=2013-06-08T16:58:56.591+02:00`, EXT1_DECLARED)).toEqual(['gs1']);
    // A stored text that is no time (a month 13) is never one, and fails no query: as text, it is equal.
    expect(await found(`${q('LT_ext1:time')}=${q('2099-01-01T00:00:00Z')}`, EXT1_DECLARED)).toEqual(['gs1', 'renamed']);
    expect(await found(`${q('EQ_ext1:time')}=2024-13-01T00:00:00Z`, EXT1_DECLARED)).toEqual(['odd']);
    const refused = await client(account.key).get(`/epcis/events?${q('GT_ext1:float')}=heavy`);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      type: 'epcisException:QueryParameterException',
      errors: { '/GT_ext1:float': [expect.stringContaining('neither a number (12.5) nor a date-time')] },
    });
  });

  it('ILMD_: the master data of what an event made, with GS1’s own cbvmda: prefix in either binding', async () => {
    expect(await found(`${q('EQ_ILMD_cbvmda:countryOfOrigin')}=GB`)).toEqual(['gs1']);
    expect(await found(`${q('EQ_ILMD_cbvmda:lotNumber')}=ABC123|LOTABC`)).toEqual(['gs1', 'xml']);
    expect(await found(`${q('EQ_ILMD_example:grading')}=A`)).toEqual(['xml']);
    expect(await found(`${q('GE_ILMD_cbvmda:netWeight')}=3.5`)).toEqual(['gs1']);
    // An element's text beside its attributes (JSON-LD's @value).
    expect(await found(`${q('EQ_ILMD_ext1:int')}=7`, EXT1_DECLARED)).toEqual(['renamed']);
    expect(await found(`${q('EXISTS_ILMD_ext1:object')}=true`)).toEqual(['gs1']);
    // An empty field ("", [], {}) does not exist.
    for (const empty of ['empty', 'none', 'nothing'])
      expect(await found(`${q(`EXISTS_ext1:${empty}`)}=true`, EXT1_DECLARED)).toEqual([]);
    expect(await found(`${q('EXISTS_ext1:time')}=true`, EXT1_DECLARED)).toEqual(['gs1', 'renamed', 'odd']);
    expect(await found(`${q('EXISTS_ILMD_cbvmda:lotNumber')}=true`)).toEqual(['gs1', 'xml']);
    // The event's own fields are not its ILMD's.
    expect(await found(`${q('EQ_ILMD_ext1:string')}=string`)).toEqual(['gs1']);
    expect(await found(`${q('EQ_ILMD_example4:otherThings')}=${q('some text')}`)).toEqual([]);
  });

  it('INNER_: at any depth within an extension field, in arrays too', async () => {
    expect(await found(`${q('EQ_INNER_ext2:string')}=stringInObject`)).toEqual(['gs1']);
    expect(await found(`${q('EQ_INNER_ext2:array')}=21`)).toEqual(['gs1']);
    expect(await found(`${q('EQ_INNER_ILMD_ext3:string')}=stringInObjectInObjectInArray`)).toEqual(['gs1']);
    expect(await found(`${q('EQ_INNER_example:machine')}=${q('urn:epc:id:giai:4012345.ABC')}`)).toEqual(['xml']);
    expect(await found(`${q('GT_INNER_ILMD_ext2:int')}=12`)).toEqual(['gs1']);
    expect(await found(`${q('EXISTS_INNER_ILMD_example2:sizeCode')}=true`)).toEqual(['xml']);
    // A top-level field is not an inner one.
    expect(await found(`${q('EQ_INNER_ext1:string')}=string`)).toEqual([]);
  });

  it('readPoint_, bizLocation_, sensor data and the error declaration', async () => {
    expect(await found(`${q('EQ_readPoint_example:gs1ES')}=${q('(414)4023333000000')}`)).toEqual(['xml']);
    expect(await found(`${q('EQ_bizLocation_example:gs1ES')}=${q('(414)4023333000017 (254)12')}`)).toEqual(['xml']);
    expect(await found(`${q('EQ_readPoint_example:gs1ES')}=${q('(414)4023333000017 (254)12')}`)).toEqual([]);
    expect(await found(`${q('EQ_SENSORELEMENT_example:someUserField')}=abc123`)).toEqual(['xml']);
    expect(await found(`${q('EQ_INNER_SENSORELEMENT_example:measure1')}=123.5`)).toEqual(['xml']);
    expect(await found(`${q('EQ_SENSORMETADATA_ext1:someFurtherMetadata')}=someText`)).toEqual(['gs1']);
    expect(await found(`${q('EQ_SENSORMETADATA_example:someFurtherMetaData')}=someText`)).toEqual(['xml']);
    expect(await found(`${q('GE_SENSORREPORT_example:cv')}=100`)).toEqual(['xml']);
    expect(await found(`${q('EQ_SENSORREPORT_ext1:someFurtherReportData')}=someText`)).toEqual(['gs1']);
    expect(await found(`${q('EQ_ERROR_DECLARATION_example:issuer')}=${q('Employee 123')}`)).toEqual(['xml']);
    expect(await found(`${q('EQ_INNER_ERROR_DECLARATION_example3:value1')}=34`)).toEqual(['xml']);
    // A declaration's fields are named as its own document declared them, not as the declared event's.
    expect(await found(`${q('EQ_ERROR_DECLARATION_d2:inspector')}=${q('Inspector 7')}`)).toEqual(['declared']);
    const inspected = `${q('EQ_ERROR_DECLARATION_insp:inspector')}=${q('Inspector 7')}`;
    expect(await found(inspected, { 'GS1-Extensions': `insp=${DECLARATIONS}` })).toEqual(['declared']);
    expect(await found(inspected, { 'GS1-Extensions': `insp=${EXT1}` })).toEqual([]);
  });

  it('a named query keeps the namespaces GS1-Extensions declared when it was made, and takes EXISTS_ as null', async () => {
    const api = client(account.key);
    const created = await api.post(
      '/epcis/queries',
      { name: 'ext1Floats', query: { 'GT_ext1:float': 20, 'EXISTS_ILMD_ext1:int': null } },
      EXT1_DECLARED,
    );
    expect(created.status).toBe(201);
    const events = await api.get<QueryDocument>('/epcis/queries/ext1Floats/events');
    expect(events.status).toBe(200);
    expect(events.body.epcisBody.queryResults.resultsBody.eventList.map((e) => nameOf.get(e.eventID!))).toEqual([
      'renamed',
    ]);
  });

  it('another account finds none of them; a GS1-Extensions it cannot read, and GS1’s master data attributes, are 400s', async () => {
    const other = await createAccount('epcis-extensions-other');
    expect(await found(`${q('EQ_ILMD_cbvmda:lotNumber')}=ABC123|LOTABC`, {}, other.key)).toEqual([]);
    expect(await found(`${q('EXISTS_ext1:float')}=true`, EXT1_DECLARED, other.key)).toEqual([]);
    const unreadable = await client(account.key).get(`/epcis/events?${q('EQ_ext1:float')}=20`, {
      'GS1-Extensions': 'ext1 http://example.com/ext1/',
    });
    expect(unreadable.status).toBe(400);
    expect(unreadable.body.detail).toContain('GS1-Extensions');
    // Sent to name what a client supports, it is read only when the query names an extension field.
    expect(await found('eventType=TransformationEvent', { 'GS1-Extensions': 'FIT' })).toEqual(['xml']);
    const attribute = await client(account.key).get(`/epcis/events?${q('HASATTR_example:grading')}=x`);
    expect(attribute.status).toBe(400);
  });
});
