import { scheduleMatches, scheduleRanges, type ScheduleRanges } from '../../domain/epcis/subscription-schedule';

function rangesOf(schedule: Parameters<typeof scheduleRanges>[0]): ScheduleRanges {
  const parsed = scheduleRanges(schedule);
  if ('issues' in parsed) throw new Error(JSON.stringify(parsed.issues));
  return parsed.ranges;
}

const at = (iso: string) => new Date(iso);

describe('scheduleMatches: the seconds a query socket’s schedule runs at, in UTC', () => {
  it('runs hour 1, minute 5 at 01:05:00 of every day only (units below the smallest given are 0)', () => {
    const ranges = rangesOf({ hour: '1', minute: '5' });
    expect(scheduleMatches(ranges, at('2024-03-01T01:05:00Z'))).toBe(true);
    expect(scheduleMatches(ranges, at('2024-07-19T01:05:00Z'))).toBe(true);
    expect(scheduleMatches(ranges, at('2024-03-01T01:05:01Z'))).toBe(false);
    expect(scheduleMatches(ranges, at('2024-03-01T02:05:00Z'))).toBe(false);
    // The clock is read in UTC, not the process's zone.
    expect(scheduleMatches(ranges, at('2024-03-01T01:05:00+01:00'))).toBe(false);
  });

  it('steps and ranges: second 0/15 and [10-12]', () => {
    const ranges = rangesOf({ second: '0/15,[10-12]' });
    const seconds = Array.from({ length: 60 }, (_, s) => s).filter((s) =>
      scheduleMatches(ranges, at(`2024-03-01T10:00:${String(s).padStart(2, '0')}Z`)),
    );
    expect(seconds).toEqual([0, 10, 11, 12, 15, 30, 45]);
  });

  it('counts days of the week from 1 = Monday to 7 = Sunday, and months from 1', () => {
    const sundays = rangesOf({ dayOfWeek: '7' });
    expect(scheduleMatches(sundays, at('2024-03-03T00:00:00Z'))).toBe(true); // a Sunday
    expect(scheduleMatches(sundays, at('2024-03-04T00:00:00Z'))).toBe(false);
    const mondays = rangesOf({ dayOfWeek: '1' });
    expect(scheduleMatches(mondays, at('2024-03-04T00:00:00Z'))).toBe(true);
    const january = rangesOf({ month: '1' });
    expect(scheduleMatches(january, at('2024-01-01T00:00:00Z'))).toBe(true);
    expect(scheduleMatches(january, at('2024-02-01T00:00:00Z'))).toBe(false);
  });
});
