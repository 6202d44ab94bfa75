/**
 * Excluded senders and domains: the organisation's (administrators) and each member's own. Mail from
 * an excluded sender starts no workflow (journal outcomes `excluded_org` / `excluded_member`, see
 * server/engine/dispatch/dispatch-mail.ts); a domain covers its subdomains. Values are stored
 * lower-case; the same kind and value twice in one list is 409 `exclusion.duplicate`. The
 * organisation's changes are audited.
 */
import type { AuthenticatedActor } from '../../core/auth/access';
import { auditByOf, recordAudit } from '../../core/audit';
import { db } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import { iso } from '../../core/http/schemas';
import { countOwnerRows, deleteRow, findEntry, findOwnerRow, insertEntry, listOwnerRows, lockOwnerList, type Owner } from './repo';
import { normaliseExclusionValue, type CreateExclusionInput } from './schemas';

/** Entries per list (a member's, the organisation's). */
export const exclusionsPerList = 1_000;

type Row = { id: string; kind: string; value: string; note: string; createdAt: Date };

function present(row: Row) {
  return { id: row.id, kind: row.kind as 'address' | 'domain', value: row.value, note: row.note, createdAt: iso(row.createdAt) };
}

const ownerOf = (actor: AuthenticatedActor, organisation: boolean): Owner => (organisation ? 'organisation' : { memberId: actor.member.id });

export async function listExclusions(actor: AuthenticatedActor, organisation = false) {
  const rows = await listOwnerRows(ownerOf(actor, organisation));
  return { exclusions: rows.map(present) };
}

export async function createExclusion(actor: AuthenticatedActor, input: CreateExclusionInput, ip: string | null, organisation = false) {
  const owner = ownerOf(actor, organisation);
  const value = normaliseExclusionValue(input.kind, input.value);
  return db().$transaction(async (tx) => {
    await lockOwnerList(tx, owner);
    if (await findEntry(tx, owner, input.kind, value)) {
      throw appError('exclusion.duplicate', { details: { kind: input.kind, value } });
    }
    if ((await countOwnerRows(tx, owner)) >= exclusionsPerList) throw appError('exclusion.limit_reached', { details: { limit: exclusionsPerList } });
    const row = await insertEntry(tx, owner, { kind: input.kind, value, note: input.note ?? '', createdBy: actor.member.id });
    if (organisation) {
      await recordAudit(auditByOf(actor), { action: 'exclusion.created', targetKind: 'sender_exclusion', targetId: row.id, details: { kind: row.kind, value: row.value }, ip }, tx);
    }
    return { exclusion: present(row) };
  });
}

export async function deleteExclusion(actor: AuthenticatedActor, id: string, ip: string | null, organisation = false) {
  const owner = ownerOf(actor, organisation);
  return db().$transaction(async (tx) => {
    const row = await findOwnerRow(tx, owner, id);
    if (!row) throw appError('exclusion.not_found');
    await deleteRow(tx, id);
    if (organisation) {
      await recordAudit(auditByOf(actor), { action: 'exclusion.deleted', targetKind: 'sender_exclusion', targetId: row.id, details: { kind: row.kind, value: row.value }, ip }, tx);
    }
    return { exclusion: present(row) };
  });
}
