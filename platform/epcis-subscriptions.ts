import {
  MONTHS,
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  type CalendarSpec,
  type Client,
  type DayOfWeek,
  type Range,
} from '@temporalio/client';
import type { ScheduleRange, ScheduleRanges } from '../domain/epcis/subscription-schedule';
import type { ReportEpcisSubscriptionWorkflow } from '../domain/webhook-contracts';

export const subscriptionScheduleId = (subscriptionId: string): string => `epcis-subscription-${subscriptionId}`;

// GS1 counts months 1 = January ... 12 = December, as the SDK's MONTHS list them, and days 1 = Monday ... 7 = Sunday.
const DAYS: readonly DayOfWeek[] = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'];

const numeric = (ranges: ScheduleRange[]): Range<number>[] =>
  ranges.map(({ start, end, step }) => ({ start, end, step }));
/** Named units cannot step in Temporal's spec: each value of a stepped range is listed. */
const named = <T>(names: readonly T[], ranges: ScheduleRange[]): Range<T>[] =>
  ranges.flatMap(({ start, end, step }) => {
    const out: Range<T>[] = [];
    for (let value = start; value <= end; value += step)
      out.push({ start: names[value - 1], end: names[value - 1], step: 1 });
    return out;
  });

export function calendarOf(ranges: ScheduleRanges): CalendarSpec {
  return {
    second: numeric(ranges.second),
    minute: numeric(ranges.minute),
    hour: numeric(ranges.hour),
    dayOfMonth: numeric(ranges.dayOfMonth),
    month: named(MONTHS, ranges.month),
    dayOfWeek: named(DAYS, ranges.dayOfWeek),
  };
}

/**
 * The Temporal Schedule of one scheduled subscription (`epcis-subscription-<id>`, in the UI under
 * Schedules): each run is a reportEpcisSubscription workflow that owes a report and wakes the
 * subscription's delivery workflow. A run still going when the next is due is enough.
 */
export async function createSubscriptionSchedule(
  client: Client,
  taskQueue: string,
  subscriptionId: string,
  ranges: ScheduleRanges,
  retrySeconds: number,
): Promise<void> {
  await client.schedule.create<ReportEpcisSubscriptionWorkflow>({
    scheduleId: subscriptionScheduleId(subscriptionId),
    spec: { calendars: [calendarOf(ranges)], timezone: 'UTC' },
    action: {
      type: 'startWorkflow',
      workflowType: 'reportEpcisSubscription',
      workflowId: subscriptionScheduleId(subscriptionId),
      taskQueue,
      args: [{ subscriptionId, retrySeconds }],
    },
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: 60_000 },
  });
}

export async function deleteSubscriptionSchedule(client: Client, subscriptionId: string): Promise<void> {
  try {
    await client.schedule.getHandle(subscriptionScheduleId(subscriptionId)).delete();
  } catch (error) {
    if (!(error instanceof ScheduleNotFoundError)) throw error;
  }
}
