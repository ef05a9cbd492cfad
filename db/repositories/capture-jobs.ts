/** EPCIS capture jobs: the account's batches of mode 'epcis', as GET /epcis/capture reads them. */
import { Op, literal, type FindAttributeOptions } from 'sequelize';
import { Batch } from '../models';

/** A capture job's columns: the stored request without its events (a document's worth, read only by the pipeline). */
const CAPTURE_JOB_ATTRIBUTES: FindAttributeOptions = {
  exclude: ['request', 'result'],
  include: [[literal(`request - 'Events'`), 'request']],
};

/** The account's capture jobs after `afterSeq` (a bigint as text; none: from the first), in order, at most `limit`. */
export function captureJobsAfter(accountId: string, afterSeq: string | undefined, limit: number): Promise<Batch[]> {
  return Batch.findAll({
    attributes: CAPTURE_JOB_ATTRIBUTES,
    where: { accountId, mode: 'epcis', ...(afterSeq ? { seq: { [Op.gt]: afterSeq } } : {}) },
    order: [['seq', 'ASC']],
    limit,
  });
}

export function findCaptureJob(accountId: string, id: string): Promise<Batch | null> {
  return Batch.findOne({ attributes: CAPTURE_JOB_ATTRIBUTES, where: { id, accountId, mode: 'epcis' } });
}

/** One capture job's status alone: what a wait for it reads before the job has finished. */
export function captureJobStatus(accountId: string, id: string): Promise<Pick<Batch, 'status'> | null> {
  return Batch.findOne({ attributes: ['status'], where: { id, accountId, mode: 'epcis' } });
}
