import type { temporal } from '@temporalio/proto';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** What the SDK's core records in a local activity's marker (its `data` detail, JSON). */
export interface LocalActivityMarker {
  activity_type: string;
  attempt: number;
  complete_time: { seconds?: unknown; nanos?: unknown } | null;
}

/** The local activity marker this history event is, if it is one (a step a workflow task ran locally). */
export function localActivityMarker(e: HistoryEvent): LocalActivityMarker | undefined {
  const marker = e.markerRecordedEventAttributes;
  const data = marker?.markerName === 'core_local_activity' ? marker.details?.data?.payloads?.[0]?.data : undefined;
  return data ? (JSON.parse(new TextDecoder().decode(data)) as LocalActivityMarker) : undefined;
}
