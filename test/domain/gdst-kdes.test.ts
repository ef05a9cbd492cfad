import { gdstKdeWarnings } from '../../domain/epcis/gdst-kdes';
import type { EpcisEvent } from '../../domain/epcis/translate';

const at = (index: number) => `/epcisBody/eventList/${index}`;
const pointers = (events: EpcisEvent[]) => gdstKdeWarnings(events, at, (index) => `E${index}`).map((w) => w.pointer);
const base = {
  eventTime: '2024-05-01T06:00:00Z',
  eventTimeZoneOffset: '+00:00',
  bizLocation: { id: 'urn:epc:id:sgln:4012345.00001.0' },
};

describe('GDST 1.2 KDEs of EPCIS events', () => {
  it('a fishing event without its vessel catch information and fishing authorisation: one warning per missing KDE', () => {
    const fishing = {
      ...base,
      type: 'ObjectEvent',
      action: 'ADD' as const,
      bizStep: 'urn:gdst:bizStep:fishingEvent',
      ilmd: {
        'cbvmda:vesselCatchInformationList': {
          'cbvmda:vesselCatchInformation': [{ 'cbvmda:vesselName': 'Northern Star' }],
        },
      },
    };
    expect(pointers([fishing])).toEqual([
      '/epcisBody/eventList/0/gdst:productOwner',
      '/epcisBody/eventList/0/cbvmda:informationProvider',
      '/epcisBody/eventList/0/ilmd/cbvmda:vesselCatchInformationList/cbvmda:vesselCatchInformation/0/cbvmda:vesselFlagState',
      '/epcisBody/eventList/0/ilmd/cbvmda:vesselCatchInformationList/cbvmda:vesselCatchInformation/0/cbvmda:vesselID',
      '/epcisBody/eventList/0/ilmd/cbvmda:vesselCatchInformationList/cbvmda:vesselCatchInformation/0/cbvmda:catchArea',
      '/epcisBody/eventList/0/ilmd/cbvmda:vesselCatchInformationList/cbvmda:vesselCatchInformation/0/cbvmda:fishingGearTypeCode',
      '/epcisBody/eventList/0/ilmd/cbvmda:certificationList',
    ]);
  });

  it('a certificate without its type or number is named; events that do not speak GDST are not checked', () => {
    const landing = {
      ...base,
      type: 'ObjectEvent',
      action: 'OBSERVE' as const,
      bizStep: 'urn:gdst:bizStep:landing',
      'gdst:productOwner': 'urn:epc:id:pgln:4012345.00001',
      'cbvmda:informationProvider': 'urn:epc:id:pgln:4012345.00001',
      'cbvmda:certificationList': { certification: [{ 'gdst:certificationType': 'urn:gdst:certType:landingAuth' }] },
    };
    const plain = { ...base, type: 'ObjectEvent', action: 'OBSERVE' as const, bizStep: 'shipping' };
    expect(pointers([plain, landing])).toEqual([
      '/epcisBody/eventList/1/cbvmda:certificationList/certification/0/certificationIdentification',
    ]);
  });
});
