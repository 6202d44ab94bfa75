/**
 * A workflow's inbound webhook: `POST /hooks/wf/{token}`. The token is made once and kept sealed, so
 * every call answers the same URL (copying it again never breaks a live sender); only `rotate: true`
 * replaces it. Lookup is by its SHA-256. An optional signing secret (HMAC-SHA256 over the raw body)
 * is returned only when this call creates or rotates it.
 */
import type { AuthenticatedActor } from '../../core/auth/access';
import { auditByOf, recordAudit } from '../../core/audit';
import { randomToken, tokenHash } from '../../core/auth/tokens';
import { publicUrl } from '../../core/config';
import { open, requireEncryption, seal } from '../../core/crypto/secret-box';
import { db } from '../../core/db';
import { webhookSecretPurpose } from '../../engine';
import * as repo from './repo';

export const tokenPurpose = (workflowId: string) => `webhook:${workflowId}`;
/** The same purpose the webhook entry opens it with. */
export const secretPurpose = webhookSecretPurpose;

/** Built from the configured public address, never from request headers (as invitation links are). */
export function webhookUrlFor(baseUrl: string, token: string): string {
  return `${baseUrl}/hooks/wf/${encodeURIComponent(token)}`;
}

export async function configureWebhook(actor: AuthenticatedActor, input: { id: string; rotate?: boolean; requireSignature?: boolean }, ip: string | null) {
  const found = await repo.findOwnedOrThrow(actor.member.id, input.id);
  requireEncryption('credentials.encryption_disabled');
  return db().$transaction(async (tx) => {
    const workflow = await repo.lockOwnedOrThrow(actor.member.id, found.id, tx);
    const rotate = input.rotate === true;
    const newToken = rotate || !workflow.webhookTokenEnc;
    const token = newToken ? randomToken(32) : open(workflow.webhookTokenEnc!, tokenPurpose(workflow.id));
    const requireSignature = input.requireSignature ?? workflow.webhookSecretEnc !== null;
    const newSecret = requireSignature && (rotate || workflow.webhookSecretEnc === null);
    const secret = newSecret ? randomToken(32) : undefined;
    const data = {
      ...(newToken && { webhookTokenHash: tokenHash(token), webhookTokenEnc: seal(token, tokenPurpose(workflow.id)) }),
      ...(secret !== undefined && { webhookSecretEnc: seal(secret, secretPurpose(workflow.id)) }),
      ...(!requireSignature && workflow.webhookSecretEnc !== null && { webhookSecretEnc: null }),
    };
    if (Object.keys(data).length) {
      await repo.updateWorkflowRow(workflow.id, data, tx);
      await recordAudit(
        auditByOf(actor),
        { action: 'workflow.webhook_configured', targetKind: 'workflow', targetId: workflow.id, details: { tokenRotated: newToken && workflow.webhookTokenEnc !== null, requireSignature }, ip },
        tx,
      );
    }
    return { url: webhookUrlFor(publicUrl(), token), token, requireSignature, ...(secret !== undefined && { secret }) };
  });
}
