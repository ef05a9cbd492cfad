import { inlinePageRouter } from '../../inline-page';
import { SUPPORT_PAGE } from './page';

/** `GET /support`: the page support staff use to find failed and stuck batches and retry them. */
export const supportRouter = () => inlinePageRouter('/support', SUPPORT_PAGE);
