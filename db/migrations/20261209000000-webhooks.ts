import type { Migration } from '../migrate';

/**
 * Webhooks: an account's endpoints, and every notification owed to one as a delivery row written in
 * the same transaction as what caused it (a batch's final status, a recall), so a crash anywhere loses
 * none. The row's id is the Webhook-Id receivers de-duplicate on; seq orders the deliveries of an
 * endpoint; source_key keeps a retried cause from owing the same notification twice. Each try of a
 * delivery is an attempt row (what GET .../deliveries lists); the retrying itself is Temporal's.
 */
export const up: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query(`
    CREATE TABLE webhook_endpoints (
      id             uuid PRIMARY KEY,
      account_id     uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      url            text NOT NULL,
      events         text[] NOT NULL,
      secret         text NOT NULL,
      created_at     timestamptz NOT NULL DEFAULT now(),
      deleted_at     timestamptz,
      failing_since  timestamptz,
      failing_reason text,
      -- standard-webhooks: Webhook-Id/-Timestamp/-Signature; gs1: an EPCIS subscription's GS1-Signature.
      signing        text NOT NULL DEFAULT 'standard-webhooks' CHECK (signing IN ('standard-webhooks', 'gs1'))
    );
    CREATE INDEX webhook_endpoints_account ON webhook_endpoints (account_id) WHERE deleted_at IS NULL;
    CREATE TABLE webhook_deliveries (
      id            text PRIMARY KEY,
      seq           bigserial NOT NULL,
      endpoint_id   uuid NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
      type          text NOT NULL,
      body          text NOT NULL,
      source_key    text NOT NULL,
      status        text NOT NULL DEFAULT 'Pending' CHECK (status IN ('Pending', 'Delivered', 'Failed', 'Cancelled')),
      created_at    timestamptz NOT NULL DEFAULT now(),
      delivered_at  timestamptz,
      UNIQUE (endpoint_id, source_key)
    );
    CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (endpoint_id, seq) WHERE status = 'Pending';
    CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, seq);
    CREATE TABLE webhook_attempts (
      id               bigserial PRIMARY KEY,
      delivery_id      text NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
      attempted_at     timestamptz NOT NULL DEFAULT now(),
      http_status      integer,
      error            text,
      next_attempt_at  timestamptz
    );
    CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, id);

    -- EPCIS 2.0 named queries and their subscriptions (GS1's REST binding, /epcis/queries). A
    -- subscription's reports go out through its own endpoint row (signing gs1), so they are delivered,
    -- retried and listed like webhooks. filter is the query's parameters as checked when it was named.
    CREATE TABLE epcis_queries (
      account_id  uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      name        text NOT NULL,
      query       jsonb NOT NULL,
      filter      jsonb NOT NULL,
      created_at  timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (account_id, name)
    );
    CREATE TABLE epcis_subscriptions (
      id                   uuid PRIMARY KEY REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
      account_id           uuid NOT NULL,
      query_name           text NOT NULL,
      stream               boolean NOT NULL,
      schedule             jsonb,
      report_if_empty      boolean NOT NULL DEFAULT false,
      initial_record_time  timestamptz NOT NULL,
      epc_format           text NOT NULL,
      created_at           timestamptz NOT NULL DEFAULT now(),
      FOREIGN KEY (account_id, query_name) REFERENCES epcis_queries(account_id, name) ON DELETE CASCADE,
      CHECK (stream <> (schedule IS NOT NULL))
    );
    CREATE INDEX epcis_subscriptions_query ON epcis_subscriptions (account_id, query_name);
    -- The batches a scheduled subscription's next report covers, recorded as each batch completes (in its
    -- transaction): batches finish in any order, so a cursor over event numbers could skip one.
    CREATE TABLE epcis_subscription_backlog (
      subscription_id  uuid NOT NULL REFERENCES epcis_subscriptions(id) ON DELETE CASCADE,
      batch_id         uuid NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
      PRIMARY KEY (subscription_id, batch_id)
    );

    -- A recall an account issued for one of its lots, and the notice each holder it reached got: what
    -- the holder's own trace shows (notice), the lots it received, and its acknowledgement.
    CREATE TABLE recalls (
      id                 uuid PRIMARY KEY,
      issuer_account_id  uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      product_id         uuid NOT NULL REFERENCES products(id),
      lot_serial         text NOT NULL,
      reason             text NOT NULL,
      created_at         timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX recalls_issuer ON recalls (issuer_account_id, created_at);
    CREATE TABLE recall_notices (
      recall_id          uuid NOT NULL REFERENCES recalls(id) ON DELETE CASCADE,
      holder_account_id  uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      notice             jsonb NOT NULL,
      received_lots      text[] NOT NULL,
      created_at         timestamptz NOT NULL DEFAULT now(),
      acknowledged_at    timestamptz,
      quantity_on_hand   numeric,
      action             text,
      PRIMARY KEY (recall_id, holder_account_id)
    );
    CREATE INDEX recall_notices_holder ON recall_notices (holder_account_id, created_at);
  `);
};

export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query(
    'DROP TABLE recall_notices; DROP TABLE recalls; DROP TABLE epcis_subscription_backlog; DROP TABLE epcis_subscriptions; DROP TABLE epcis_queries; DROP TABLE webhook_attempts; DROP TABLE webhook_deliveries; DROP TABLE webhook_endpoints',
  );
};
