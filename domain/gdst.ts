/**
 * GDST 1.2 Key Data Elements the batch-style events can carry, checked where GDST asks for them. A
 * missing one is a warning on the event's result, never a refusal: the event is what happened, and the
 * KDE may be sent later in another system. Pure.
 */
import type { EventPayload } from './events';
import { vesselFromPayload, type StoredVessel } from './master-data';

export interface KdeWarning {
  code: 'MissingGdstKde';
  field: string;
  message: string;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value : null);
const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** CustomProperties entries by lower-case Name (`catchArea`, `fishingGearTypeCode`, ...), with any namespace. */
function customProperty(event: EventPayload, names: readonly string[]): string | null {
  for (const entry of event.CustomProperties ?? []) {
    const { Name, Value } = record(entry);
    if (typeof Name === 'string' && names.includes(Name.toLowerCase().replace(/^.*:/, '')) && text(Value))
      return text(Value);
  }
  return null;
}

const certificateTypes = (event: EventPayload): string[] =>
  (event.CertificationList ?? [])
    .map((c) => text(record(c).Type) ?? text(record(c).CertificationType) ?? '')
    .filter(Boolean);

/** What GDST asks of the vessel of a wild catch, as the location stores it. */
export type GdstVessel = Pick<StoredVessel, 'vesselName' | 'vesselFlagState' | 'imoNumber' | 'vesselRegistration'>;

/** The vessel an event's own Location.Details carry: for batches stored before the stored one was kept. */
export const requestVesselOf = (event: EventPayload): GdstVessel | null =>
  vesselFromPayload(event.Location?.Details?.Vessel);

/**
 * Warnings for event `index` of a batch. A commission at a vessel (the location's stored master data,
 * however the event named the location) is a wild catch.
 */
export function gdstWarnings(event: EventPayload, index: number, vessel: GdstVessel | null): KdeWarning[] {
  const warnings: KdeWarning[] = [];
  // An event captured through EPCIS carries its KDEs in EPCIS's own fields, checked on capture (domain/epcis/gdst-kdes.ts).
  if ('Epcis' in event || 'EpcisOriginal' in event) return warnings;
  const at = (field: string) => `Events[${index}].${field}`;
  const missing = (field: string, what: string) =>
    warnings.push({
      code: 'MissingGdstKde',
      field: at(field),
      message: `GDST asks for ${what} (${at(field)}); the event was stored without it.`,
    });

  (event.CertificationList ?? []).forEach((entry, i) => {
    const c = record(entry);
    if (!text(c.Identification) && !text(c.CertificationIdentification))
      missing(`CertificationList[${i}].Identification`, 'the certificate’s identification (its number)');
    if (!text(c.Type) && !text(c.CertificationType))
      missing(`CertificationList[${i}].Type`, 'the certificate’s type (urn:gdst:certType:...)');
  });

  if (event.$type === 'commission' && vessel) {
    if (!text(vessel.vesselName)) missing('Location.Details.Vessel.VesselName', 'the vessel name of a wild catch');
    if (!text(vessel.vesselFlagState))
      missing('Location.Details.Vessel.VesselFlagState', 'the vessel flag state of a wild catch');
    if (!text(vessel.imoNumber) && !text(vessel.vesselRegistration)) {
      missing(
        'Location.Details.Vessel.IMONumber',
        'a unique vessel identifier (IMONumber or VesselRegistration) of a wild catch',
      );
    }
    if (!customProperty(event, ['catcharea']))
      missing('CustomProperties', 'the catch area of a wild catch (a CustomProperties entry named catchArea)');
    if (!customProperty(event, ['fishinggeartypecode', 'fishinggeartype'])) {
      missing(
        'CustomProperties',
        'the fishing gear type of a wild catch (a CustomProperties entry named fishingGearTypeCode)',
      );
    }
    if (!certificateTypes(event).some((t) => t.endsWith(':fishingAuth'))) {
      missing(
        'CertificationList',
        'the fishing authorisation of a wild catch (a certificate of type urn:gdst:certType:fishingAuth)',
      );
    }
  }
  return warnings;
}
