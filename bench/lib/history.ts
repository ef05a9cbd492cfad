import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

const { EventType } = temporal.api.enums.v1;
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

import { localActivityMarker } from '../../test/helpers/local-activity-marker';

type Timestamp = { seconds?: unknown; nanos?: unknown } | null | undefined;
const msOfTime = (t: Timestamp) => Number(t?.seconds ?? 0) * 1000 + Number(t?.nanos ?? 0) / 1e6;
const msOf = (e: HistoryEvent) => msOfTime(e.eventTime);

/**
 * A local activity's marker: its type, and when it finished by the workflow's clock (the marker itself is
 * written with the workflow task's completion, after every step of the task). The SDK's core records as
 * its complete_time the workflow's time when the step was scheduled plus the step's run, and moves the
 * workflow's clock there: steps in a row add up their runs from the task's start, and the passes between
 * the workflow thread, the core and the steps are in none of them. Its schedule time, also in the marker,
 * is the wall clock's, and not always set when the step was scheduled, so no duration is read from it.
 */
function localActivityOf(e: HistoryEvent): { name: string; doneAtMs: number | null } | undefined {
  const marker = localActivityMarker(e);
  if (!marker) return undefined;
  return { name: marker.activity_type, doneAtMs: marker.complete_time ? msOfTime(marker.complete_time) : null };
}

/**
 * Where one workflow's time went, from its history's timestamps: waiting for a worker to pick up a
 * workflow task (queued), the worker running it and the server recording its commands (workflow
 * tasks), each activity task from its start to its completion, and the whole run. A local activity's
 * duration is not in its history (see localActivityOf): the worker's own timing has it (bench/events.ts).
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

/**
 * One workflow's history as lines, in time order, each at its offset from the start: every workflow
 * task with its time in the queue (scheduled to started: the schedule-to-start) and its run, every
 * activity task with its queue time and run, every local activity (its marker) when it finished by the
 * workflow's clock (see localActivityOf; how long each step ran is the worker's figure: bench/events.ts's
 * stepMs), and what the workflow's end came after the last of them: the SDK's passes and the completion.
 */
export async function timelineOf(client: Client, workflowId: string): Promise<string[]> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const events = history.events ?? [];
  const byId = new Map(events.map((e) => [String(e.eventId), e]));
  const start = msOf(events[0]);
  const ms = (n: number) => `${n.toFixed(1)} ms`;
  const lines: { atMs: number; text: string }[] = [];
  let tasks = 0;
  let lastStepDoneMs: number | undefined;
  for (const e of events) {
    if (e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED) {
      const started = byId.get(String(e.workflowTaskCompletedEventAttributes?.startedEventId))!;
      const scheduled = byId.get(String(started.workflowTaskStartedEventAttributes?.scheduledEventId))!;
      lines.push({
        atMs: msOf(scheduled),
        text: `workflow task ${++tasks}: queued ${ms(msOf(started) - msOf(scheduled))}, ran ${ms(msOf(e) - msOf(started))}`,
      });
    } else if (e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED) {
      const attributes = e.activityTaskCompletedEventAttributes!;
      const scheduled = byId.get(String(attributes.scheduledEventId))!;
      const started = byId.get(String(attributes.startedEventId))!;
      const name = scheduled.activityTaskScheduledEventAttributes?.activityType?.name ?? '?';
      lines.push({
        atMs: msOf(scheduled),
        text: `${name} (activity task): queued ${ms(msOf(started) - msOf(scheduled))}, ran ${ms(msOf(e) - msOf(started))}`,
      });
    } else if (e.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED) {
      const afterSteps = lastStepDoneMs === undefined ? '' : `, ${ms(msOf(e) - lastStepDoneMs)} after the last step`;
      lines.push({ atMs: msOf(e), text: `workflow completed${afterSteps}` });
    } else {
      const local = localActivityOf(e);
      if (local) {
        const atMs = local.doneAtMs ?? msOf(e);
        lastStepDoneMs = Math.max(lastStepDoneMs ?? atMs, atMs);
        lines.push({ atMs, text: `${local.name} (local activity marker): done by the workflow's clock` });
      }
    }
  }
  return lines
    .sort((a, b) => a.atMs - b.atMs)
    .map(({ atMs, text }) => `${`+${(atMs - start).toFixed(1)} ms`.padStart(11)}  ${text}`);
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
