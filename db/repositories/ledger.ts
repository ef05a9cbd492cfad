import type { Sequelize } from 'sequelize';
import { canonicalJson, chainHash, GENESIS_HASH, sha256Hex } from '../../domain/hashing';
import { unnestArrays, preparedQueryOf, queryOf } from '../sql';
import { originalColumnsSql, originalJoin, payloadWithOriginal, type OriginalColumns } from './epcis-originals';

export interface LedgerVerification {
  entries: number;
  headHash: string | null;
  valid: boolean;
  /** The first entry whose payload or link does not check out; null when the chain is valid. */
  firstInvalidSequence: number | null;
}

/**
 * Where commission events are written for tamper evidence. This one is a hash chain per account in
 * PostgreSQL; a distributed ledger can take its place behind the same two calls.
 */
export interface LedgerWriter {
  /** Appends the batch's commission events not yet on the ledger; safe to call again. */
  appendBatch(accountId: string, batchId: string): Promise<{ appended: number }>;
  verify(accountId: string): Promise<LedgerVerification>;
}

interface EventRow {
  id: string;
  external_event_id: string;
  type: string;
  event_time: Date;
  location_id: string;
  payload: unknown;
}

/** An event as the ledger reads it: its row, and its original apart (`originalColumnsSql`). */
type StoredEventRow = Omit<EventRow, 'payload'> & OriginalColumns & { payload: Record<string, unknown> };
const withOriginal = (row: StoredEventRow): EventRow => ({ ...row, payload: payloadWithOriginal(row.payload, row) });

/** What is hashed of an event: its identity, time, place and the payload as the caller sent it. */
export const ledgerPayloadHash = (row: EventRow): string =>
  sha256Hex(
    canonicalJson({
      id: row.id,
      externalEventId: row.external_event_id,
      type: row.type,
      eventTime: row.event_time.toISOString(),
      locationId: row.location_id,
      payload: row.payload,
    }),
  );

export class PostgresHashChainLedger implements LedgerWriter {
  constructor(private readonly sequelize: Sequelize) {}

  appendBatch(accountId: string, batchId: string): Promise<{ appended: number }> {
    const { sequelize } = this;
    return sequelize.transaction(async (transaction) => {
      const query = preparedQueryOf(sequelize, transaction);
      // One writer per account at a time: the chain's next sequence and previous hash depend on the head.
      await query(`SELECT pg_advisory_xact_lock(hashtextextended('ledger|' || $1, 0))`, [accountId]);
      // Each row carries the chain's head as the lock left it (null for an empty chain).
      const rows = await query<StoredEventRow & { head_sequence: string | null; head_hash: string | null }>(
        `SELECT e.id, e.external_event_id, e.type, e.event_time, e.location_id, e.payload, ${originalColumnsSql()},
                h.sequence AS head_sequence, h.hash AS head_hash
           FROM events e ${originalJoin()}
           LEFT JOIN LATERAL (SELECT sequence, hash FROM ledger_entries WHERE account_id = $2 ORDER BY sequence DESC LIMIT 1) h ON true
          WHERE e.batch_id = $1 AND e.type = 'Commission'
            AND NOT EXISTS (SELECT 1 FROM ledger_entries l WHERE l.event_id = e.id)
          ORDER BY e.seq`,
        [batchId, accountId],
      );
      if (!rows.length) return { appended: 0 };
      const [{ head_sequence: headSequence, head_hash: headHash }] = rows;
      let sequence = headSequence ? BigInt(headSequence) : 0n;
      let previous = headHash ?? GENESIS_HASH;
      const entries = rows.map((row) => {
        sequence += 1n;
        const payloadHash = ledgerPayloadHash(withOriginal(row));
        const hash = chainHash(previous, payloadHash, sequence, row.id);
        const entry = { sequence: sequence.toString(), eventId: row.id, payloadHash, previousHash: previous, hash };
        previous = hash;
        return entry;
      });
      await query(
        `INSERT INTO ledger_entries (account_id, sequence, event_id, payload_hash, previous_hash, hash)
         SELECT $1, u.sequence, u.event_id, u.payload_hash, u.previous_hash, u.hash
           FROM unnest($2::bigint[], $3::uuid[], $4::text[], $5::text[], $6::text[]) AS u(sequence, event_id, payload_hash, previous_hash, hash)`,
        [accountId, ...unnestArrays(entries, ['sequence', 'eventId', 'payloadHash', 'previousHash', 'hash'])],
      );
      return { appended: entries.length };
    });
  }

  async verify(accountId: string): Promise<LedgerVerification> {
    const rows = await queryOf(this.sequelize)<
      StoredEventRow & { sequence: string; event_id: string; payload_hash: string; previous_hash: string; hash: string }
    >(
      `SELECT l.sequence, l.event_id, l.payload_hash, l.previous_hash, l.hash,
              e.id, e.external_event_id, e.type, e.event_time, e.location_id, e.payload, ${originalColumnsSql()}
         FROM ledger_entries l LEFT JOIN events e ON e.id = l.event_id ${originalJoin()}
        WHERE l.account_id = $1
        ORDER BY l.sequence`,
      [accountId],
    );
    let previous = GENESIS_HASH;
    let expectedSequence = 1n;
    let firstInvalid: number | null = null;
    for (const row of rows) {
      const payloadOk =
        row.id !== null &&
        ledgerPayloadHash(withOriginal({ ...row, event_time: new Date(row.event_time) })) === row.payload_hash;
      const linkOk = row.previous_hash === previous && BigInt(row.sequence) === expectedSequence;
      const hashOk = chainHash(row.previous_hash, row.payload_hash, row.sequence, row.event_id) === row.hash;
      if (!(payloadOk && linkOk && hashOk)) {
        firstInvalid = Number(row.sequence);
        break;
      }
      previous = row.hash;
      expectedSequence += 1n;
    }
    return {
      entries: rows.length,
      headHash: rows.length ? rows[rows.length - 1].hash : null,
      valid: firstInvalid === null,
      firstInvalidSequence: firstInvalid,
    };
  }
}
