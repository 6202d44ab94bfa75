/**
 * What the database saw of mailbox syncing, for tests that run several runner processes: installed
 * as triggers in the test's own database (the product's schema is untouched), recording
 *
 * - every change of a mailbox's lease (taken, renewed, released), with the database's clock;
 * - every write a sync makes (a mirrored message inserted, a folder cursor moved, a delta recorded on
 *   the mailbox), with the writing connection's `application_name` (each runner process connects as
 *   its own name) and the lease as it stood at that instant.
 *
 * From those, `mirrorWritesOutsideLease` lists the writes made by a process that did not hold the
 * mailbox's live lease (two runners syncing one mailbox at once shows here), and `takeovers` when a
 * mailbox's lease passed from one holder to another.
 */
import { db } from '../../server/core/db';

const statements = [
  `CREATE TABLE observed_leases (seq bigserial PRIMARY KEY, mailbox_id uuid NOT NULL, owner text, lease_until timestamptz, at timestamptz NOT NULL DEFAULT clock_timestamp())`,
  `CREATE FUNCTION observe_lease() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     INSERT INTO observed_leases (mailbox_id, owner, lease_until) VALUES (NEW.id, NEW.lease_owner, NEW.lease_until);
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER observe_lease AFTER UPDATE OF lease_owner, lease_until ON mailboxes FOR EACH ROW
     WHEN (OLD.lease_owner IS DISTINCT FROM NEW.lease_owner OR OLD.lease_until IS DISTINCT FROM NEW.lease_until)
     EXECUTE FUNCTION observe_lease()`,
  `CREATE TABLE observed_sync_writes (seq bigserial PRIMARY KEY, mailbox_id uuid NOT NULL, what text NOT NULL, writer text NOT NULL,
     lease_owner text, lease_live boolean NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp())`,
  // The lease is read as committed at the write's instant: a runner whose lease expired or passed on
  // while it still wrote shows as a write outside its lease.
  `CREATE FUNCTION observe_sync_write() RETURNS trigger LANGUAGE plpgsql AS $$
   DECLARE target uuid;
   BEGIN
     -- Each branch is planned only when it runs: NEW has no mailbox_id on mailboxes.
     IF TG_TABLE_NAME = 'mailboxes' THEN target := NEW.id; ELSE target := NEW.mailbox_id; END IF;
     INSERT INTO observed_sync_writes (mailbox_id, what, writer, lease_owner, lease_live)
       SELECT m.id, TG_TABLE_NAME, current_setting('application_name'), m.lease_owner, coalesce(m.lease_until >= clock_timestamp(), false)
         FROM mailboxes m WHERE m.id = target;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER observe_message_write AFTER INSERT ON mail_messages FOR EACH ROW EXECUTE FUNCTION observe_sync_write()`,
  `CREATE TRIGGER observe_folder_write AFTER UPDATE ON mail_folders FOR EACH ROW EXECUTE FUNCTION observe_sync_write()`,
  `CREATE TRIGGER observe_delta_write AFTER UPDATE OF last_delta_at ON mailboxes FOR EACH ROW EXECUTE FUNCTION observe_sync_write()`,
];

export async function installSyncObserver(): Promise<void> {
  for (const statement of statements) await db().$executeRawUnsafe(statement);
}

export interface SyncWrite {
  mailboxId: string;
  what: string;
  writer: string;
  leaseOwner: string | null;
  leaseLive: boolean;
  at: Date;
}

export async function syncWrites(): Promise<SyncWrite[]> {
  const rows = await db().$queryRaw<{ mailbox_id: string; what: string; writer: string; lease_owner: string | null; lease_live: boolean; at: Date }[]>`
    SELECT mailbox_id::text, what, writer, lease_owner, lease_live, at FROM observed_sync_writes ORDER BY seq`;
  return rows.map((row) => ({ mailboxId: row.mailbox_id, what: row.what, writer: row.writer, leaseOwner: row.lease_owner, leaseLive: row.lease_live, at: row.at }));
}

/**
 * Writes made by a connection that was not the live lease holder's: `ownerOf(writer)` says which lease
 * owner a writer's `application_name` stands for (null: not a runner of the test, so never allowed).
 */
export function mirrorWritesOutsideLease(writes: SyncWrite[], ownerOf: (writer: string) => ((owner: string) => boolean) | null): SyncWrite[] {
  return writes.filter((write) => {
    const owns = ownerOf(write.writer);
    return !owns || !write.leaseLive || write.leaseOwner === null || !owns(write.leaseOwner);
  });
}

export interface LeaseChange {
  mailboxId: string;
  owner: string | null;
  leaseUntil: Date | null;
  at: Date;
}

export async function leaseHistory(): Promise<LeaseChange[]> {
  const rows = await db().$queryRaw<{ mailbox_id: string; owner: string | null; lease_until: Date | null; at: Date }[]>`
    SELECT mailbox_id::text, owner, lease_until, at FROM observed_leases ORDER BY seq`;
  return rows.map((row) => ({ mailboxId: row.mailbox_id, owner: row.owner, leaseUntil: row.lease_until, at: row.at }));
}

export interface Takeover {
  mailboxId: string;
  from: string;
  to: string;
  /** When the previous holder's last lease ran out (its last renewal + the lease's length). */
  expiredAt: Date;
  /** When the new holder took it. */
  at: Date;
}

/**
 * Each time a mailbox's lease went from one owner to another without being released in between: a
 * take-over of a lease left to expire (a dead runner's). A lease given back (owner NULL) first is a
 * hand-over, not listed.
 */
export function takeovers(history: LeaseChange[]): Takeover[] {
  const found: Takeover[] = [];
  const last = new Map<string, LeaseChange>();
  for (const change of history) {
    const previous = last.get(change.mailboxId);
    if (previous?.owner && change.owner && previous.owner !== change.owner && previous.leaseUntil) {
      found.push({ mailboxId: change.mailboxId, from: previous.owner, to: change.owner, expiredAt: previous.leaseUntil, at: change.at });
    }
    last.set(change.mailboxId, change);
  }
  return found;
}
