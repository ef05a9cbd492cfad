import type { Migration } from '../migrate';

/**
 * A recall's strategy (21 CFR 7.42: depth, effectiveness check level, how often an unanswered consignee
 * is reminded) and its closing; per consignee, how it was reached (tier 1: the issuer shipped to it; n+1:
 * a consignee of tier n passed the recall on), what was shipped to it per lot, its answer per lot, the
 * reminders it got and when it became overdue. Recalls issued before keep what they were: a consumer-level
 * recall, every holder at tier 1, checked at level A.
 */
export const up: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query(`
    ALTER TABLE recalls
      ADD COLUMN depth text NOT NULL DEFAULT 'Consumer' CHECK (depth IN ('Consumer', 'Retail', 'Wholesale')),
      ADD COLUMN check_level text NOT NULL DEFAULT 'A' CHECK (check_level IN ('A', 'B', 'C', 'D', 'E')),
      ADD COLUMN check_percent numeric NOT NULL DEFAULT 100 CHECK (check_percent >= 0 AND check_percent <= 100),
      ADD COLUMN remind_every_seconds integer NOT NULL DEFAULT 86400 CHECK (remind_every_seconds > 0),
      ADD COLUMN overdue_after_reminders integer NOT NULL DEFAULT 3 CHECK (overdue_after_reminders >= 0),
      ADD COLUMN closed_at timestamptz,
      ADD COLUMN close_reason text,
      ADD COLUMN closed_level_met boolean;
    ALTER TABLE recall_notices
      ADD COLUMN tier integer NOT NULL DEFAULT 1 CHECK (tier >= 1),
      ADD COLUMN via_account_id uuid REFERENCES accounts(id) ON DELETE SET NULL,
      ADD COLUMN sources jsonb NOT NULL DEFAULT '[]',
      ADD COLUMN shipped jsonb NOT NULL DEFAULT '[]',
      ADD COLUMN lot_answers jsonb,
      ADD COLUMN passed_on_at timestamptz,
      ADD COLUMN reminded_at timestamptz[] NOT NULL DEFAULT '{}',
      ADD COLUMN overdue_at timestamptz;
  `);
};

export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query(`
    ALTER TABLE recall_notices DROP COLUMN tier, DROP COLUMN via_account_id, DROP COLUMN sources, DROP COLUMN shipped,
      DROP COLUMN lot_answers, DROP COLUMN passed_on_at, DROP COLUMN reminded_at, DROP COLUMN overdue_at;
    ALTER TABLE recalls DROP COLUMN depth, DROP COLUMN check_level, DROP COLUMN check_percent,
      DROP COLUMN remind_every_seconds, DROP COLUMN overdue_after_reminders, DROP COLUMN closed_at,
      DROP COLUMN close_reason, DROP COLUMN closed_level_met;
  `);
};
