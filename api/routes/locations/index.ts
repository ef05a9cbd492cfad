import Router from '@koa/router';
import { findLocation, hasActiveInventory, listLocations } from '../../../db/repositories/master-data';
import { locationCreateIssues, locationIdIssues } from '../../../domain/master-data';
import { updateLocations } from '../../../usecases/master-data';
import type { AppCustom, AppState } from '../../context';
import {
  fourKey,
  invalidRequest,
  masterDataDeps,
  refusedAs,
  storedAnswer,
  validateBatch,
} from '../master-data/batch-errors';
import { createdAnswer } from '../master-data/create';
import { masterDataReadRoutes } from '../master-data/read';
import { presentLocation, presentUpdatedLocation } from './presenter';
import { createLocationsSchema, updateLocationsSchema } from '../../../domain/schemas/locations';

/** Locations and vessels (SPEC.md, Endpoints): create, list, read one, update. */
export function locationsRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();

  router.post('/Integration/Locations', validateBatch(createLocationsSchema), async (ctx) => {
    const { Locations: records } = ctx.state.input.body;
    ctx.body = await createdAnswer(ctx, { kind: 'locations', records }, locationCreateIssues(records));
  });

  masterDataReadRoutes(router, '/Integration/Locations', {
    list: listLocations,
    find: findLocation,
    present: presentLocation,
    unknown: { code: 'unknown-location', noun: 'Location' },
  });

  router.put('/Integration/Location', validateBatch(updateLocationsSchema, ['Location']), async (ctx) => {
    const { body } = ctx.state.input;
    if ((body.Locations === undefined) === (body.Location === undefined)) {
      throw invalidRequest([
        {
          index: null,
          id: null,
          field: 'Locations',
          message: 'Send either Locations (a list) or Location (one object).',
        },
      ]);
    }
    const single = body.Location !== undefined;
    const items = body.Location ? [body.Location] : body.Locations!;
    const prefixOf = (index: number) => (single ? 'Location' : `Locations[${index}]`);
    const idIssues = locationIdIssues(items, prefixOf);
    if (idIssues.length) throw invalidRequest(idIssues);

    const { account } = ctx.state;
    const updated = await updateLocations(masterDataDeps(ctx.deps), { account, items, prefixOf }).catch(
      refusedAs('location'),
    );

    if (single) {
      const [found] = updated;
      const active = await hasActiveInventory(account.id, found.location.id);
      ctx.body = fourKey('Location updated.', presentUpdatedLocation(found, account, active));
    } else {
      const ids = updated.map(({ location }) => location.id);
      ctx.body = storedAnswer('location', 'Updated', ids);
    }
  });

  return router;
}
