import {
  condition,
  continueAsNew,
  defineSignal,
  log,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { RECALL_CHANGED_SIGNAL, type FollowRecallInput, type FollowRecallResult } from '../domain/recall-contracts';

export const recallChangedSignal = defineSignal(RECALL_CHANGED_SIGNAL);

/** Reading and writing the recall's rows: retried until the database answers (a pass run twice does nothing more). */
const { followUpRecall } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/** A missed signal (the API died between its commit and the signal) is picked up this late at most. */
const IDLE_MS = 3_600_000;
/** The shortest wait between two passes: a reminder falling due a moment after a pass is sent by the next. */
const MIN_WAIT_MS = 1_000;
const MAX_HISTORY_EVENTS = 2_000;
/** How long a follow-up started before its recall's commit waits for the recall to be stored. */
const MISSING_WAIT_MS = 60_000;

/**
 * One workflow per recall (`recall-<id>`), from its issue until it closes: each pass reminds the
 * consignees that have not answered and whose reminder is due, marks overdue those reminded enough and
 * tells the issuer (the activity, in one transaction); between passes a durable timer waits for the next
 * due reminder, or for a signal that the recall changed (a consignee passed it on, answered, or the
 * issuer closed it).
 */
export async function followRecall(
  input: FollowRecallInput,
  done: FollowRecallResult = { reminders: 0, overdue: [] },
): Promise<FollowRecallResult> {
  let changed = false;
  setHandler(recallChangedSignal, () => {
    changed = true;
  });
  let { reminders } = done;
  let waitedForRecall = false;
  const overdue = [...done.overdue];
  for (;;) {
    // Cleared before the pass: a change committed after it reads comes with a signal that sets it again.
    changed = false;
    const pass = await followUpRecall(input.recallId);
    if (pass.closed) return { reminders, overdue };
    if (pass.missing) {
      // Started before the recall's commit: the API signals once it is stored. Still missing after
      // the wait, the commit failed (or the recall went with its account): nothing to follow.
      if (waitedForRecall) return { reminders, overdue };
      waitedForRecall = true;
      await condition(() => changed, MISSING_WAIT_MS);
      continue;
    }
    reminders += pass.reminded.length;
    overdue.push(...pass.overdue);
    if (pass.overdue.length) log.info('recall consignees overdue', { recallId: input.recallId, overdue: pass.overdue });
    const wait = pass.nextDueSeconds === null ? IDLE_MS : Math.max(MIN_WAIT_MS, Math.ceil(pass.nextDueSeconds * 1000));
    await condition(() => changed, wait);
    const info = workflowInfo();
    if (info.continueAsNewSuggested || info.historyLength > MAX_HISTORY_EVENTS)
      await continueAsNew<typeof followRecall>(input, { reminders, overdue });
  }
}
