/**
 * A scheduled subscription's `schedule` (GS1's REST binding: cron-like fields, each a comma-separated
 * list of numbers, `[a-b]` ranges and `a/step` steps) as ranges a scheduler can run. As in cron, a unit
 * below the smallest one given is 0 (hour 1, minute 5: at 01:05:00), every larger one left out is any.
 */
export const SCHEDULE_FIELDS = ['second', 'minute', 'hour', 'dayOfMonth', 'month', 'dayOfWeek'] as const;
export type ScheduleField = (typeof SCHEDULE_FIELDS)[number];

export interface ScheduleRange {
  start: number;
  end: number;
  step: number;
}

const BOUNDS: Record<ScheduleField, [number, number]> = {
  second: [0, 59],
  minute: [0, 59],
  hour: [0, 23],
  dayOfMonth: [1, 31],
  month: [1, 12],
  // 1 is Monday, 7 Sunday.
  dayOfWeek: [1, 7],
};

export type ScheduleRanges = Record<ScheduleField, ScheduleRange[]>;

/** The ranges of each field, or the problems by field name (`schedule.minute`). */
export function scheduleRanges(
  schedule: Partial<Record<ScheduleField, string>>,
): { ranges: ScheduleRanges } | { issues: Record<string, string> } {
  const issues: Record<string, string> = {};
  const ranges = {} as ScheduleRanges;
  const given = SCHEDULE_FIELDS.filter((field) => schedule[field] !== undefined);
  if (!given.length)
    return {
      issues: { schedule: 'schedule must name at least one of second, minute, hour, dayOfMonth, month, dayOfWeek.' },
    };
  const smallest = SCHEDULE_FIELDS.indexOf(given[0]);
  SCHEDULE_FIELDS.forEach((field, index) => {
    const [min, max] = BOUNDS[field];
    const value = schedule[field];
    if (value === undefined) {
      ranges[field] = [{ start: min, end: index < smallest && index < 3 ? min : max, step: 1 }];
      return;
    }
    const parsed: ScheduleRange[] = [];
    for (const element of value.split(',').map((e) => e.trim())) {
      const range = elementRange(element, min, max);
      if (!range) {
        issues[`schedule.${field}`] =
          `schedule.${field} "${value}" is not a list of numbers from ${min} to ${max}, [a-b] ranges or a/step steps.`;
        return;
      }
      parsed.push(range);
    }
    ranges[field] = parsed;
  });
  return Object.keys(issues).length ? { issues } : { ranges };
}

function elementRange(element: string, min: number, max: number): ScheduleRange | null {
  const inBounds = (...values: number[]) => values.every((v) => Number.isInteger(v) && v >= min && v <= max);
  let match = /^(\d{1,2})$/.exec(element);
  if (match) return inBounds(Number(match[1])) ? { start: Number(match[1]), end: Number(match[1]), step: 1 } : null;
  match = /^\[(\d{1,2})-(\d{1,2})\]$/.exec(element);
  if (match) {
    const [start, end] = [Number(match[1]), Number(match[2])];
    return inBounds(start, end) && start <= end ? { start, end, step: 1 } : null;
  }
  match = /^(\d{1,2})\/(\d{1,2})$/.exec(element);
  if (match) {
    const [start, step] = [Number(match[1]), Number(match[2])];
    return inBounds(start) && step >= 1 ? { start, end: max, step } : null;
  }
  return null;
}

/** Whether `time` (read in UTC, as the Temporal Schedules of webhook subscriptions run) is one the ranges name. */
export function scheduleMatches(ranges: ScheduleRanges, time: Date): boolean {
  const values: Record<ScheduleField, number> = {
    second: time.getUTCSeconds(),
    minute: time.getUTCMinutes(),
    hour: time.getUTCHours(),
    dayOfMonth: time.getUTCDate(),
    month: time.getUTCMonth() + 1,
    // getUTCDay counts 0 = Sunday; GS1 7.
    dayOfWeek: time.getUTCDay() || 7,
  };
  return SCHEDULE_FIELDS.every((field) =>
    ranges[field].some(
      ({ start, end, step }) => values[field] >= start && values[field] <= end && (values[field] - start) % step === 0,
    ),
  );
}
