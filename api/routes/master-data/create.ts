import type { MasterDataIssue } from '../../../domain/master-data';
import { createMasterData, type MasterDataRecords } from '../../../usecases/master-data';
import type { APIContext } from '../../context';
import { invalidRequest, masterDataDeps, refusedAs, storedAnswer } from './batch-errors';

/**
 * POST /Integration/Locations and /Products: the request's own rule `issues` refuse it whole; else every
 * record is created in one transaction, and the answer lists their ids.
 */
export async function createdAnswer(ctx: APIContext, data: MasterDataRecords, issues: MasterDataIssue[]) {
  if (issues.length) throw invalidRequest(issues);
  const [noun, list] =
    data.kind === 'locations' ? (['location', 'Locations'] as const) : (['product', 'Products'] as const);
  const created = await createMasterData(masterDataDeps(ctx.deps), {
    account: ctx.state.account,
    data,
    fieldOf: (index) => `${list}[${index}]`,
  }).catch(refusedAs(noun));
  return storedAnswer(noun, 'Created', created);
}
