// Every process's activities log alike: the helper lives in platform/ (the reconciler's activity, in batches/, uses it too).
export { activityLogger } from '../platform/activity-logger';
