import { Context } from '@temporalio/activity';
import type { Logger } from '../platform/logger';

/** What every pipeline log line carries, so one batch can be followed across API, workflow and activities. */
export interface PipelineFields {
  batchId: string;
  /** Account name, as the API logs it. */
  account: string;
}

/**
 * The deps logger bound to the running activity: workflow id, run id, activity type and attempt come
 * from the Temporal context; batch id and account from the activity's input. Call it inside the
 * activity function (the context exists only while an activity runs):
 *
 *   activityLogger(deps.logger, { batchId: input.batchId, account: input.accountName }).info(...)
 */
export function activityLogger(logger: Logger, fields: PipelineFields): Logger {
  const { info } = Context.current();
  return logger.child({
    ...fields,
    workflowId: info.workflowExecution?.workflowId,
    runId: info.workflowExecution?.runId,
    activity: info.activityType,
    attempt: info.attempt,
  });
}
