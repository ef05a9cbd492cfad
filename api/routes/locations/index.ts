import Router from '@koa/router';
import {
  createLocation,
  findLocation,
  hasActiveInventory,
  listLocations,
  MasterDataConflict,
} from '../../../db/repositories/master-data';
import {
  locationCreateIssues,
  locationIdIssues,
  locationIdOf,
  locationUpdate,
  locationUpdateIssues,
  unchangeableIssues,
  type MasterDataIssue,
} from '../../../domain/master-data';
import type { AppCustom, AppState } from '../../context';
import { problem } from '../../errors';
import { conflictingRequest, invalidRequest, rejection, validateBatch } from '../master-data/batch-errors';
import { pageBody, pageOf, validatePage } from '../../paging';
import { presentLocation, presentUpdatedLocation } from './presenter';
import { createLocationsSchema, updateLocationsSchema } from './schema';

/** Locations and vessels (SPEC.md, Endpoints): create, list, read one, update. */
export function locationsRouter(): Router<AppState, AppCustom> {
  const router = new Router<AppState, AppCustom>();

  router.post('/Integration/Locations', validateBatch(createLocationsSchema), async (ctx) => {
    const { Locations: locations } = ctx.state.input.body;
    const validations = locationCreateIssues(locations);
    if (validations.length) throw invalidRequest(validations);
    const { account } = ctx.state;
    const created = await ctx.deps.sequelize.transaction(async (transaction) => {
      const errors: MasterDataIssue[] = [];
      const ids: string[] = [];
      for (const [index, payload] of locations.entries()) {
        try {
          ids.push(
            (await createLocation(account, payload, ctx.deps.config.urnDomain, transaction, `Locations[${index}]`)).id,
          );
        } catch (error) {
          if (!(error instanceof MasterDataConflict)) throw error;
          errors.push({ index, id: locationIdOf(payload) ?? null, field: error.field, message: error.message });
        }
      }
      // Thrown inside the transaction so that the locations and trade partners created so far roll back.
      if (errors.length) throw conflictingRequest(errors);
      return ids;
    });
    ctx.body = {
      message: `${created.length} location(s) created.`,
      result: created.map((id) => ({ id, status: 'Created' })),
      errors: [],
      validations: [],
    };
  });

  router.get('/Integration/Locations', validatePage(), async (ctx) => {
    const page = pageOf(ctx.state.input.query);
    const { rows, total } = await listLocations(ctx.state.account.id, page.offset, page.pageSize);
    ctx.body = pageBody(page, total, rows.map(presentLocation));
  });

  router.get('/Integration/Locations/:id', async (ctx) => {
    const found = await findLocation(ctx.state.account.id, ctx.params.id);
    if (!found) throw problem('unknown-location', { detail: `Location ${ctx.params.id} was not found.` });
    ctx.body = presentLocation(found);
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
    const updated = await ctx.deps.sequelize.transaction(async (transaction) => {
      const validations: MasterDataIssue[] = [];
      const errors: MasterDataIssue[] = [];
      let missing = false;
      const results = [];
      for (const [index, item] of items.entries()) {
        const prefix = prefixOf(index);
        const id = locationIdOf(item)!;
        const found = await findLocation(account.id, id, transaction);
        if (!found) {
          missing = true;
          errors.push({ index, id, field: `${prefix}.id`, message: `Location ${id} was not found.` });
          continue;
        }
        const { location, tradePartner } = found;
        const partner = item.Details.TradePartner;
        if (partner && partner.Id !== tradePartner.externalId) {
          errors.push({
            index,
            id,
            field: `${prefix}.Details.TradePartner.Id`,
            message: `Location ${id} belongs to trade partner ${tradePartner.externalId}, not ${partner.Id}; a location's trade partner never changes.`,
          });
          continue;
        }
        const isVessel = location.vessel !== null;
        const change = locationUpdate(location, item.Details, isVessel);
        const issues = [
          ...unchangeableIssues(
            { duns: location.duns, dunsPlus4: location.dunsPlus4, tradePartner },
            item.Details,
            `${prefix}.Details`,
          ),
          ...locationUpdateIssues(change, item.Details, `${prefix}.Details`, isVessel),
        ];
        if (issues.length) {
          validations.push(...issues.map((issue) => ({ index, id, ...issue })));
          continue;
        }
        await location.update(change.attributes, { transaction });
        if (partner)
          await tradePartner.update(
            {
              name: partner.Name ?? tradePartner.name,
              connectionType: partner.ConnectionType ?? tradePartner.connectionType,
            },
            { transaction },
          );
        results.push(found);
      }
      // Thrown inside the transaction, so the elements already changed roll back too.
      if (validations.length || errors.length) {
        const status = missing ? 404 : 400;
        throw rejection(status, `The update has ${validations.length + errors.length} error(s); nothing was changed.`, {
          errors,
          validations,
        });
      }
      return results;
    });

    if (single) {
      const [found] = updated;
      const active = await hasActiveInventory(account.id, found.location.id);
      ctx.body = {
        message: 'Location updated.',
        result: presentUpdatedLocation(found, account, active),
        errors: [],
        validations: [],
      };
    } else {
      ctx.body = {
        message: `${updated.length} location(s) updated.`,
        result: updated.map(({ location }) => ({ id: location.id, status: 'Updated' })),
        errors: [],
        validations: [],
      };
    }
  });

  return router;
}
