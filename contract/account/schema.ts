import { closedObject } from '../openapi/schema';

/** GET /Integration/Account answers with the key's account; it takes no input. */
export const accountResponse = closedObject({
  id: { type: 'string', format: 'uuid', description: 'Service id of the account.' },
  name: { type: 'string', description: 'Account name given when the key was created.' },
  createdTime: { type: 'string', format: 'date-time' },
});
