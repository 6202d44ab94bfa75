/**
 * The approval email: bilingual (English then French), text and HTML, with the two links. The links
 * open a page that asks for a confirmation (a GET never decides: link scanners fetch every link).
 */
import { publicUrl } from '../../core/config';
import { escapeHtml } from './html';

export function approvalLink(token: string, decision: 'approve' | 'reject'): string {
  return `${publicUrl()}/api/v1/approvals/t/${token}/${decision}`;
}

export interface ApprovalEmailInput {
  token: string;
  title: string;
  details: string | null;
  workflowName: string;
  expiresAt: Date;
  brandName: string;
}

export function approvalEmail(input: ApprovalEmailInput): { subject: string; bodyText: string; bodyHtml: string } {
  const approve = approvalLink(input.token, 'approve');
  const reject = approvalLink(input.token, 'reject');
  const expires = input.expiresAt.toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
  const subject = `Approval requested / Approbation demandée: ${input.title}`.slice(0, 200);
  const details = input.details ? `\n${input.details}\n` : '';
  const bodyText = [
    `${input.title}`,
    details,
    `Workflow "${input.workflowName}" (${input.brandName}) asks for your decision before ${expires}.`,
    `Approve: ${approve}`,
    `Reject: ${reject}`,
    'Each link opens a page where you confirm; opening it alone decides nothing.',
    '',
    '---',
    '',
    `Le workflow « ${input.workflowName} » (${input.brandName}) demande votre décision avant le ${expires}.`,
    `Approuver : ${approve}`,
    `Refuser : ${reject}`,
    'Chaque lien ouvre une page où vous confirmez ; l’ouvrir seul ne décide rien.',
    '',
  ].join('\n');
  const button = (href: string, label: string, color: string) =>
    `<a href="${escapeHtml(href)}" style="display:inline-block;padding:10px 18px;margin:4px 8px 4px 0;border-radius:6px;background:${color};color:#fff;text-decoration:none;font-weight:600">${label}</a>`;
  const detailsHtml = input.details ? `<p style="white-space:pre-wrap">${escapeHtml(input.details)}</p>` : '';
  const bodyHtml = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2328;max-width:560px">
<h2 style="margin:0 0 8px">${escapeHtml(input.title)}</h2>${detailsHtml}
<div lang="en"><p>Workflow <strong>${escapeHtml(input.workflowName)}</strong> (${escapeHtml(input.brandName)}) asks for your decision before ${escapeHtml(expires)}.</p>
<p>${button(approve, 'Approve', '#1a7f37')}${button(reject, 'Reject', '#cf222e')}</p>
<p style="color:#59636e;font-size:13px">Each link opens a page where you confirm; opening it alone decides nothing.</p></div>
<hr style="border:none;border-top:1px solid #d1d9e0">
<div lang="fr"><p>Le workflow <strong>${escapeHtml(input.workflowName)}</strong> (${escapeHtml(input.brandName)}) demande votre décision avant le ${escapeHtml(expires)}.</p>
<p>${button(approve, 'Approuver', '#1a7f37')}${button(reject, 'Refuser', '#cf222e')}</p>
<p style="color:#59636e;font-size:13px">Chaque lien ouvre une page où vous confirmez ; l’ouvrir seul ne décide rien.</p></div>
</body></html>`;
  return { subject, bodyText, bodyHtml };
}
