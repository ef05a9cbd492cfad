import { operation } from '../openapi/operation';

export const metricsOperations = [
  operation({
    method: 'get',
    path: '/metrics',
    summary: 'Prometheus metrics of the API process',
    description:
      'Text exposition format: requests by route template and status with latency histograms, plus process metrics. ' +
      "No key, for scrapers: keep it off the public network. The worker serves its own on WORKER_APP_METRICS_PORT and the Temporal SDK's on WORKER_METRICS_PORT.",
    tags: ['Metrics'],
    public: true,
    responses: {
      200: {
        description: 'All metrics of this process.',
        contentType: 'text/plain',
        schema: { type: 'string' },
        example:
          '# HELP traceability_http_requests_total HTTP requests answered, by method, route template and status.\n# TYPE traceability_http_requests_total counter\ntraceability_http_requests_total{method="GET",route="/Integration/Account",status="200"} 3\n',
      },
    },
  }),
];
