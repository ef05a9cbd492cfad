import type { Migration } from '../migrate';

/*
 * Every table carries account_id and every lookup starts with it. Service ids are UUIDs; callers' own
 * ids live in external_id columns, unique per account. Quantities are NUMERIC so sums stay exact.
 */
export const up: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query(`
    CREATE TABLE accounts (
      id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name        text NOT NULL UNIQUE,
      created_at  timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE api_keys (
      id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id  uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      lookup      text NOT NULL UNIQUE,
      key_hash    bytea NOT NULL,
      label       text,
      created_at  timestamptz NOT NULL DEFAULT now(),
      revoked_at  timestamptz
    );
    CREATE INDEX api_keys_account ON api_keys (account_id);

    CREATE TABLE trade_partners (
      id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id       uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      external_id      text,
      urn              text NOT NULL,
      name             text NOT NULL,
      connection_type  text NOT NULL CHECK (connection_type IN ('SELF', 'SUPPLIER', 'BUYER', 'OTHER')),
      duns             text,
      pgln             text,
      created_at       timestamptz NOT NULL DEFAULT now(),
      updated_at       timestamptz NOT NULL DEFAULT now(),
      UNIQUE (account_id, external_id),
      UNIQUE (account_id, urn)
    );

    CREATE TABLE locations (
      id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      seq                bigserial NOT NULL UNIQUE,
      account_id         uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      trade_partner_id   uuid NOT NULL REFERENCES trade_partners(id),
      external_id        text,
      urn                text NOT NULL,
      name               text NOT NULL,
      gln                text,
      duns               text,
      duns_plus4         text,
      extension          text,
      captains_name      text,
      address            jsonb,
      contact            jsonb,
      vessel             jsonb,
      food_facility_registration_number text,
      location_type      text,
      created_at         timestamptz NOT NULL DEFAULT now(),
      updated_at         timestamptz NOT NULL DEFAULT now(),
      UNIQUE (account_id, external_id),
      UNIQUE (account_id, urn)
    );
    CREATE INDEX locations_account_seq ON locations (account_id, seq);
    CREATE INDEX locations_gln ON locations (gln) WHERE gln IS NOT NULL;
    CREATE INDEX locations_trade_partner ON locations (trade_partner_id);

    CREATE TABLE products (
      id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      seq                 bigserial NOT NULL UNIQUE,
      account_id          uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      external_id         text,
      urn                 text NOT NULL,
      name                text NOT NULL,
      unit_of_measure     text NOT NULL,
      unit_quantity       numeric,
      unit_descriptor     text CHECK (unit_descriptor IN ('Cases', 'Units', 'Totes', 'Pallets')),
      sharing_policy      text NOT NULL CHECK (sharing_policy IN ('Open', 'Restricted')),
      identifier_type     text NOT NULL CHECK (identifier_type IN ('Lot', 'Serial')),
      gtin                text,
      plu                 text,
      master_data         jsonb NOT NULL DEFAULT '[]',
      created_at          timestamptz NOT NULL DEFAULT now(),
      updated_at          timestamptz NOT NULL DEFAULT now(),
      UNIQUE (account_id, external_id),
      UNIQUE (account_id, urn)
    );
    CREATE INDEX products_account_seq ON products (account_id, seq);

    CREATE TABLE documents (
      id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      seq                 bigserial NOT NULL UNIQUE,
      account_id          uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      document_id         text NOT NULL,
      title               text NOT NULL,
      document_type       text NOT NULL CHECK (document_type IN ('Certification', 'PurchaseOrder', 'BOL', 'Other')),
      document_type_name  text,
      file_name           text NOT NULL,
      file_type           text NOT NULL,
      size_bytes          bigint NOT NULL,
      sha256              bytea NOT NULL,
      content             bytea NOT NULL,
      expiration_date     date,
      company             text,
      location            text,
      product             text,
      privacy             text NOT NULL CHECK (privacy IN ('Public', 'Private')),
      created_at          timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX documents_account_document_id ON documents (account_id, lower(document_id));
    CREATE INDEX documents_account_seq ON documents (account_id, seq);

    CREATE TABLE batches (
      id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      seq              bigserial NOT NULL UNIQUE,
      account_id       uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      workflow_id      text NOT NULL UNIQUE,
      idempotency_key  text,
      mode             text NOT NULL CHECK (mode IN ('sync', 'async', 'json', 'retry')),
      status           text NOT NULL CHECK (status IN ('Accepted', 'Running', 'Completed', 'Failed')),
      event_count      integer NOT NULL,
      request          jsonb NOT NULL,
      result           jsonb,
      errors           jsonb,
      submitted_at     timestamptz NOT NULL DEFAULT now(),
      started_at       timestamptz,
      completed_at     timestamptz,
      retry_of         uuid REFERENCES batches(id)
    );
    CREATE INDEX batches_account_seq ON batches (account_id, seq);
    CREATE INDEX batches_status ON batches (status, seq);

    CREATE TABLE events (
      id                       uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      seq                      bigserial NOT NULL UNIQUE,
      account_id               uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      batch_id                 uuid NOT NULL REFERENCES batches(id),
      external_event_id        text NOT NULL,
      type                     text NOT NULL CHECK (type IN ('Commission', 'Receive', 'Ship', 'Transform', 'Aggregation', 'Disaggregation', 'Observe', 'Decommission')),
      event_time               timestamptz NOT NULL,
      event_time_zone          text NOT NULL,
      location_id              uuid NOT NULL REFERENCES locations(id),
      source_location_id       uuid REFERENCES locations(id),
      destination_location_id  uuid REFERENCES locations(id),
      purchase_order           text,
      invoice_number           text,
      reference_document_id    text,
      biz_step                 text,
      disposition              text,
      urn                      text NOT NULL,
      payload                  jsonb NOT NULL,
      created_at               timestamptz NOT NULL DEFAULT now(),
      UNIQUE (account_id, external_event_id)
    );
    CREATE INDEX events_batch ON events (batch_id);
    CREATE INDEX events_account_purchase_order ON events (account_id, purchase_order) WHERE purchase_order IS NOT NULL;

    -- One row per product instance an event names. role: instance (commission, receive, ship, observe,
    -- decommission), input / output (transform), parent / child (aggregation, disaggregation).
    CREATE TABLE event_lines (
      id           bigserial PRIMARY KEY,
      account_id   uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      event_id     uuid NOT NULL REFERENCES events(id) ON DELETE CASCADE,
      position     integer NOT NULL,
      role         text NOT NULL CHECK (role IN ('instance', 'input', 'output', 'parent', 'child')),
      product_id   uuid NOT NULL REFERENCES products(id),
      lot_serial   text NOT NULL,
      quantity     numeric NOT NULL CHECK (quantity >= 0),
      UNIQUE (event_id, role, position)
    );
    CREATE INDEX event_lines_account_lot ON event_lines (account_id, lot_serial, event_id);
    CREATE INDEX event_lines_product_lot ON event_lines (product_id, lot_serial);

    CREATE TABLE event_documents (
      account_id   uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      event_id     uuid NOT NULL REFERENCES events(id) ON DELETE CASCADE,
      document_id  uuid NOT NULL REFERENCES documents(id),
      PRIMARY KEY (event_id, document_id)
    );
    CREATE INDEX event_documents_document ON event_documents (document_id);

    -- The inventory timeline: one record per inventory-affecting event line, per (product, lot,
    -- location), ordered by (event_time, event_seq). balance and available are derived from delta by
    -- the pipeline's recalculation step (see domain/inventory-timeline).
    CREATE TABLE inventory_records (
      id           bigserial PRIMARY KEY,
      account_id   uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      product_id   uuid NOT NULL REFERENCES products(id),
      lot_serial   text NOT NULL,
      location_id  uuid NOT NULL REFERENCES locations(id),
      event_id     uuid NOT NULL REFERENCES events(id) ON DELETE CASCADE,
      event_line_id bigint NOT NULL UNIQUE REFERENCES event_lines(id) ON DELETE CASCADE,
      event_time   timestamptz NOT NULL,
      event_seq    bigint NOT NULL,
      delta        numeric NOT NULL,
      balance      numeric NOT NULL,
      available    numeric NOT NULL
    );
    CREATE INDEX inventory_records_timeline ON inventory_records (account_id, product_id, lot_serial, location_id, event_time, event_seq);
    CREATE INDEX inventory_records_location ON inventory_records (account_id, location_id, product_id);

    CREATE TABLE ledger_entries (
      account_id     uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      sequence       bigint NOT NULL,
      event_id       uuid NOT NULL UNIQUE REFERENCES events(id),
      payload_hash   text NOT NULL,
      previous_hash  text NOT NULL,
      hash           text NOT NULL,
      created_at     timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (account_id, sequence)
    );
  `);
};

export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query(`
    DROP TABLE ledger_entries, inventory_records, event_documents, event_lines, events, batches,
      documents, products, locations, trade_partners, api_keys, accounts;
  `);
};
