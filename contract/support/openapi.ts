import { pageOperations } from '../openapi/operation';

export const supportOperations = [
  ...pageOperations(
    'support',
    'Sign in with an API key (a support key sees every account), see failed batches and batches stuck in Accepted or Running, ' +
      'open one for every error, retry it and follow the retry, or (a support key) abandon it with a reason. Failed batches whose events another ' +
      'batch stored since (replaced) and abandoned ones are listed apart, without a retry. The page holds no data itself; it calls /Integration/Batches.',
  ),
];
