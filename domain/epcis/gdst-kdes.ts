/**
 * GDST 1.2 Key Data Elements of EPCIS 2.0 JSON-LD events (GDST's profiles: fishing, transshipment,
 * landing, processing, shipping, receiving), checked on capture. A missing KDE is a warning listed per
 * event in the capture job, never a refusal: the event is what happened. Only events that speak GDST
 * (a `urn:gdst:` business step, or GDST's own fields) are checked. Pure.
 */
import type { EpcisEvent } from './translate';

export interface EpcisKdeWarning {
  type: 'MissingGdstKde';
  /** The event's index in the document and its eventID. */
  index: number;
  eventID: string;
  /** JSON pointer of the missing KDE in the document. */
  pointer: string;
  /** What is missing, and that the event was captured all the same. */
  detail: string;
}

type Json = Record<string, unknown>;
const record = (value: unknown): Json =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
const list = (value: unknown): unknown[] =>
  Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
const present = (value: unknown): boolean =>
  typeof value === 'string' ? value.trim() !== '' : value !== undefined && value !== null;

/** A field by its local name, whatever prefix the document gave it (`cbvmda:vesselName`, `gdst:vesselName`, `vesselName`). */
function field(object: Json, name: string): unknown {
  for (const [key, value] of Object.entries(object)) if (key === name || key.endsWith(`:${name}`)) return value;
  return undefined;
}

/** GDST's business step of an event, lower-cased without its namespace (`fishingevent`, `landing`), or the CBV one (`shipping`). */
const stepOf = (event: EpcisEvent): string =>
  (event.bizStep ?? '')
    .toLowerCase()
    .replace(/^urn:gdst:bizstep:|^urn:epcglobal:cbv:bizstep:|^https:\/\/ref\.gs1\.org\/cbv\/bizstep-/, '');

export const speaksGdst = (event: EpcisEvent): boolean =>
  /^urn:gdst:/i.test(event.bizStep ?? '') ||
  Object.keys(event).some((key) => key.startsWith('gdst:')) ||
  field(event, 'informationProvider') !== undefined;

/** The certificates of an event: `cbvmda:certificationList.certification` at the event and in its ILMD. */
function certificatesOf(event: EpcisEvent): { certificate: Json; pointer: string }[] {
  const out: { certificate: Json; pointer: string }[] = [];
  const collect = (holder: Json, at: string) => {
    for (const [key, value] of Object.entries(holder)) {
      if (key !== 'certificationList' && !key.endsWith(':certificationList')) continue;
      const certifications = record(value);
      const [inner, entries] = Object.entries(certifications).find(
        ([k]) => k === 'certification' || k.endsWith(':certification'),
      ) ?? ['certification', []];
      list(entries).forEach((certificate, i) =>
        out.push({ certificate: record(certificate), pointer: `${at}/${key}/${inner}/${i}` }),
      );
    }
  };
  collect(event, '');
  collect(record(event.ilmd), '/ilmd');
  return out;
}

/** The GDST KDEs missing from each event of a document that speaks GDST. */
export function gdstKdeWarnings(
  events: EpcisEvent[],
  pointerOf: (index: number) => string,
  eventIdOf: (index: number) => string,
): EpcisKdeWarning[] {
  const warnings: EpcisKdeWarning[] = [];
  events.forEach((event, index) => {
    if (event.errorDeclaration || !speaksGdst(event)) return;
    const at = pointerOf(index);
    const missing = (pointer: string, what: string) =>
      warnings.push({
        type: 'MissingGdstKde',
        index,
        eventID: eventIdOf(index),
        pointer: `${at}${pointer}`,
        detail: `GDST 1.2 asks for ${what}; the event was captured without it.`,
      });
    const step = stepOf(event);

    if (!present(field(event, 'productOwner'))) missing('/gdst:productOwner', 'the product owner (gdst:productOwner)');
    if (!present(field(event, 'informationProvider')))
      missing('/cbvmda:informationProvider', 'the information provider (cbvmda:informationProvider)');
    if (!event.bizLocation && !event.readPoint) missing('/bizLocation', 'where the event happened (bizLocation)');

    const certificates = certificatesOf(event);
    for (const { certificate, pointer } of certificates) {
      if (!present(field(certificate, 'certificationType')))
        missing(
          `${pointer}/gdst:certificationType`,
          'the certificate’s type (gdst:certificationType, urn:gdst:certType:…)',
        );
      if (!present(field(certificate, 'certificationIdentification')))
        missing(`${pointer}/certificationIdentification`, 'the certificate’s identification (its number)');
    }
    const hasCertificate = (type: string) =>
      certificates.some(({ certificate }) => {
        const certificationType = field(certificate, 'certificationType');
        return (
          typeof certificationType === 'string' && certificationType.toLowerCase().endsWith(`:${type.toLowerCase()}`)
        );
      });

    if (step === 'fishingevent') {
      const ilmd = record(event.ilmd);
      const catches = list(field(record(field(ilmd, 'vesselCatchInformationList')), 'vesselCatchInformation')).map(
        record,
      );
      if (!catches.length)
        missing(
          '/ilmd/cbvmda:vesselCatchInformationList',
          'the vessel catch information of a wild catch (cbvmda:vesselCatchInformationList in the ILMD)',
        );
      catches.forEach((vessel, i) => {
        const pointer = `/ilmd/cbvmda:vesselCatchInformationList/cbvmda:vesselCatchInformation/${i}`;
        if (!present(field(vessel, 'vesselName')))
          missing(`${pointer}/cbvmda:vesselName`, 'the vessel name (cbvmda:vesselName)');
        if (!present(field(vessel, 'vesselFlagState')))
          missing(`${pointer}/cbvmda:vesselFlagState`, 'the vessel flag state (cbvmda:vesselFlagState)');
        if (!present(field(vessel, 'vesselID')) && !present(field(vessel, 'imoNumber')))
          missing(`${pointer}/cbvmda:vesselID`, 'a unique vessel identifier (cbvmda:vesselID or gdst:imoNumber)');
        if (!present(field(vessel, 'catchArea')))
          missing(`${pointer}/cbvmda:catchArea`, 'the catch area (cbvmda:catchArea)');
        if (!present(field(vessel, 'fishingGearTypeCode')))
          missing(`${pointer}/cbvmda:fishingGearTypeCode`, 'the fishing gear type (cbvmda:fishingGearTypeCode)');
      });
      if (!hasCertificate('fishingAuth'))
        missing(
          '/ilmd/cbvmda:certificationList',
          'the fishing authorisation (a certificate of type urn:gdst:certType:fishingAuth)',
        );
    }
    for (const kind of ['landing', 'transshipment'])
      if (step === kind && !hasCertificate(`${kind}Auth`))
        missing(
          '/cbvmda:certificationList',
          `the ${kind} authorisation (a certificate of type urn:gdst:certType:${kind}Auth)`,
        );
    if (event.type === 'TransformationEvent') {
      if (!event.inputQuantityList?.length && !event.inputEPCList?.length)
        missing('/inputQuantityList', 'the inputs of a processing event');
      if (!event.outputQuantityList?.length && !event.outputEPCList?.length)
        missing('/outputQuantityList', 'the outputs of a processing event');
    }
  });
  return warnings;
}
