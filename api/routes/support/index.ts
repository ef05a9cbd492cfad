import { browserPageRouter } from '../../browser-page';
import { SUPPORT_PAGE } from './page';

/** `GET /support` and its script: the page support staff use to find failed and stuck batches and retry them. */
export const supportRouter = () => browserPageRouter('/support', SUPPORT_PAGE);
