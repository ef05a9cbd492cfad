import type { Client } from '@temporalio/client';
import { tsToMs } from '@temporalio/common/lib/time';
import { temporal } from '@temporalio/proto';

const Type = temporal.api.enums.v1.EventType;

/** One call as the client saw it, in wall-clock milliseconds (the same clock as the server's on one machine). */
export interface TimedCall {
  workflowId: string;
  sentAt: number;
  answeredAt: number;
}

/**
 * Where one sync call's time went, from its workflow's history: in the API before the workflow started,
 * each workflow task's and activity's wait for a worker slot (schedule-to-start) and its run
 * (start-to-close), and after the workflow closed until the caller had the answer.
 */
export async function whereWaited(client: Client, call: TimedCall) {
  const events = (await client.workflow.getHandle(call.workflowId).fetchHistory()).events ?? [];
  const at = new Map<number, number>(); // scheduled event id → its time
  const steps: string[] = [];
  let started = call.sentAt;
  let closed = call.answeredAt;
  const activityNames = new Map<number, string>();
  let activityWaitMs = 0;
  let workflowTaskWaitMs = 0;
  let runMs = 0;
  for (const event of events) {
    const time = tsToMs(event.eventTime);
    const id = Number(event.eventId);
    switch (event.eventType) {
      case Type.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
        started = time;
        break;
      case Type.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED:
        at.set(id, time);
        break;
      case Type.EVENT_TYPE_WORKFLOW_TASK_STARTED: {
        const scheduled = Number(event.workflowTaskStartedEventAttributes?.scheduledEventId);
        const wait = time - (at.get(scheduled) ?? time);
        workflowTaskWaitMs += wait;
        steps.push(`wft wait ${wait}`);
        at.set(id, time);
        break;
      }
      case Type.EVENT_TYPE_WORKFLOW_TASK_COMPLETED: {
        const startedId = Number(event.workflowTaskCompletedEventAttributes?.startedEventId);
        runMs += time - (at.get(startedId) ?? time);
        steps.push(`wft run ${time - (at.get(startedId) ?? time)}`);
        break;
      }
      case Type.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
        at.set(id, time);
        activityNames.set(id, event.activityTaskScheduledEventAttributes?.activityType?.name ?? '?');
        break;
      case Type.EVENT_TYPE_ACTIVITY_TASK_STARTED: {
        const scheduled = Number(event.activityTaskStartedEventAttributes?.scheduledEventId);
        const wait = time - (at.get(scheduled) ?? time);
        activityWaitMs += wait;
        steps.push(`${activityNames.get(scheduled)} wait ${wait}`);
        at.set(id, time);
        break;
      }
      case Type.EVENT_TYPE_ACTIVITY_TASK_COMPLETED: {
        const startedId = Number(event.activityTaskCompletedEventAttributes?.startedEventId);
        const scheduled = Number(event.activityTaskCompletedEventAttributes?.scheduledEventId);
        runMs += time - (at.get(startedId) ?? time);
        steps.push(`${activityNames.get(scheduled)} run ${time - (at.get(startedId) ?? time)}`);
        break;
      }
      case Type.EVENT_TYPE_MARKER_RECORDED:
        steps.push(`local activity done at +${time - started}`);
        break;
      case Type.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED:
      case Type.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED:
        closed = time;
        break;
    }
  }
  return {
    totalMs: Math.round(call.answeredAt - call.sentAt),
    inApiBeforeStartMs: Math.round(started - call.sentAt),
    workflowMs: closed - started,
    // Schedule-to-start: waiting for a worker's poll (a free slot, and the server's matching).
    workflowTaskWaitMs,
    activityWaitMs,
    // Workflow tasks' and activities' start-to-close: running, on a worker's thread or event loop.
    runMs,
    afterCloseUntilAnswerMs: Math.round(call.answeredAt - closed),
    steps: steps.join(', '),
  };
}
