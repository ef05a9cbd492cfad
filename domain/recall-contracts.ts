/** Types and names shared by whoever starts a recall's follow-up workflow (the API) and the workflow. */

/** Input of followRecall (`recall-<recallId>`): a reference; the recall and its consignees are in PostgreSQL. */
export interface FollowRecallInput {
  recallId: string;
}

/** What a recall's follow-up did over its life (this run, after a continue-as-new). */
export interface FollowRecallResult {
  reminders: number;
  overdue: string[];
}

/** followRecall's signature, as the recall use cases start it by name (see DeliverWebhooksWorkflow). */
export type FollowRecallWorkflow = (input: FollowRecallInput) => Promise<FollowRecallResult>;

/** One pass of the follow-up, as the activity answers it: what it did and when the next is due. */
export interface RecallFollowUpOutcome {
  /** No such recall: not stored yet (the follow-up starts before the recall's commit), or never stored. */
  missing?: boolean;
  closed: boolean;
  reminded: string[];
  overdue: string[];
  nextDueSeconds: number | null;
}

export const recallWorkflowId = (recallId: string): string => `recall-${recallId}`;

/** Sent after every commit that changes what the follow-up waits for: a pass-on, an answer, the close. */
export const RECALL_CHANGED_SIGNAL = 'recallChanged';
