import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

const { EventType } = temporal.api.enums.v1;
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

const msOf = (e: HistoryEvent) => Number(e.eventTime?.seconds ?? 0) * 1000 + Number(e.eventTime?.nanos ?? 0) / 1e6;

/**
 * Where one workflow's time went, from its history's timestamps: waiting for a worker to pick up a
 * workflow task (queued), the worker running it and the server recording its commands (workflow
 * tasks), each activity from its start to its completion, and the whole run.
 */
export interface Breakdown {
  totalMs: number;
  workflowTasks: number;
  workflowTaskQueuedMs: number;
  workflowTaskMs: number;
  activityMs: Record<string, number>;
}

export async function breakdownOf(client: Client, workflowId: string): Promise<Breakdown> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const events = history.events ?? [];
  const byId = new Map(events.map((e) => [String(e.eventId), e]));
  const out: Breakdown = {
    totalMs: msOf(events[events.length - 1]) - msOf(events[0]),
    workflowTasks: 0,
    workflowTaskQueuedMs: 0,
    workflowTaskMs: 0,
    activityMs: {},
  };
  for (const e of events) {
    if (e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED) {
      out.workflowTasks++;
      out.workflowTaskQueuedMs +=
        msOf(e) - msOf(byId.get(String(e.workflowTaskStartedEventAttributes?.scheduledEventId))!);
    } else if (e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED) {
      out.workflowTaskMs += msOf(e) - msOf(byId.get(String(e.workflowTaskCompletedEventAttributes?.startedEventId))!);
    } else if (e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED) {
      const attributes = e.activityTaskCompletedEventAttributes!;
      const name =
        byId.get(String(attributes.scheduledEventId))?.activityTaskScheduledEventAttributes?.activityType?.name ?? '?';
      out.activityMs[name] = msOf(e) - msOf(byId.get(String(attributes.startedEventId))!);
    }
  }
  return out;
}

/** The median of each figure over many workflows (an activity's over the workflows that ran it). */
export function medianBreakdown(all: Breakdown[]): Breakdown {
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return Math.round(sorted[Math.floor(sorted.length / 2)] * 10) / 10;
  };
  const names = [...new Set(all.flatMap((b) => Object.keys(b.activityMs)))];
  return {
    totalMs: median(all.map((b) => b.totalMs)),
    workflowTasks: median(all.map((b) => b.workflowTasks)),
    workflowTaskQueuedMs: median(all.map((b) => b.workflowTaskQueuedMs)),
    workflowTaskMs: median(all.map((b) => b.workflowTaskMs)),
    activityMs: Object.fromEntries(
      names.map((name) => [name, median(all.flatMap((b) => (name in b.activityMs ? [b.activityMs[name]] : [])))]),
    ),
  };
}
