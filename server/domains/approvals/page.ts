/**
 * The standalone pages of the emailed link: branded with the instance's name, in English and French
 * on the same page (the reader's preferred language first), no script, no outside resource. Pure.
 */
import { escapeHtml } from './html';
import type { LinkApproval, LinkView } from './link';

export type PageLanguage = 'en' | 'fr';

/** The reader's preferred language among ours, from Accept-Language (English unless French comes first). */
export function preferredLanguage(acceptLanguage: string | null): PageLanguage {
  if (!acceptLanguage) return 'en';
  for (const part of acceptLanguage.slice(0, 500).split(',')) {
    const tag = part.split(';')[0].trim().toLowerCase();
    if (tag.startsWith('fr')) return 'fr';
    if (tag.startsWith('en')) return 'en';
  }
  return 'en';
}

type Texts = Record<PageLanguage, string>;

function date(value: Date, language: PageLanguage): string {
  const text = value.toISOString().replace('T', ' ').slice(0, 16);
  return language === 'fr' ? `${text} UTC` : `${text} UTC`;
}

function summary(approval: LinkApproval, language: PageLanguage): string {
  const labels = language === 'fr' ? { workflow: 'Workflow', until: 'Ouverte jusqu’au' } : { workflow: 'Workflow', until: 'Open until' };
  const details = approval.details ? `<p class="details">${escapeHtml(approval.details)}</p>` : '';
  return `<h2>${escapeHtml(approval.title)}</h2>${details}<dl><dt>${labels.workflow}</dt><dd>${escapeHtml(approval.workflowName)}</dd><dt>${labels.until}</dt><dd>${date(approval.expiresAt, language)}</dd></dl>`;
}

function holding(approval: LinkApproval, language: PageLanguage): string {
  const by = approval.decidedBy ? escapeHtml(approval.decidedBy) : null;
  const at = approval.decidedAt ? date(approval.decidedAt, language) : null;
  if (approval.status === 'approved' || approval.status === 'rejected') {
    const approved = approval.status === 'approved';
    if (language === 'fr') return `Cette demande a déjà été ${approved ? 'approuvée' : 'refusée'}${by ? ` par ${by}` : ''}${at ? ` le ${at}` : ''}. Cette décision est définitive.`;
    return `This request was already ${approved ? 'approved' : 'rejected'}${by ? ` by ${by}` : ''}${at ? ` on ${at}` : ''}. That decision holds.`;
  }
  if (approval.reason === 'cancelled') {
    return language === 'fr' ? 'L’exécution a été annulée : cette demande ne peut plus être décidée.' : 'The run was cancelled: this request can no longer be decided.';
  }
  if (approval.reason === 'run_ended') {
    return language === 'fr' ? 'L’exécution s’est terminée sans cette décision : cette demande ne peut plus être décidée.' : 'The run ended without this decision: this request can no longer be decided.';
  }
  return language === 'fr'
    ? `Cette demande a expiré le ${date(approval.expiresAt, language)} sans décision.`
    : `This request expired on ${date(approval.expiresAt, language)} without a decision.`;
}

const styles = `body{font-family:system-ui,-apple-system,sans-serif;background:#f6f8fa;color:#1f2328;margin:0;padding:24px}
main{max-width:560px;margin:0 auto;background:#fff;border:1px solid #d1d9e0;border-radius:10px;padding:24px}
header{font-weight:700;color:#59636e;margin-bottom:12px}section+section{border-top:1px solid #d1d9e0;margin-top:20px;padding-top:16px}
h1{font-size:20px;margin:0 0 12px}h2{font-size:17px;margin:12px 0 4px}.details{white-space:pre-wrap}dl{display:grid;grid-template-columns:auto 1fr;gap:4px 12px;color:#59636e}dd{margin:0}
button{font:inherit;font-weight:600;border:0;border-radius:6px;padding:10px 20px;color:#fff;cursor:pointer}.approve{background:#1a7f37}.reject{background:#cf222e}
.note{color:#59636e;font-size:14px}`;

function layout(brandName: string, first: PageLanguage, title: Texts, body: Record<PageLanguage, string>, tail = ''): string {
  const order: PageLanguage[] = first === 'fr' ? ['fr', 'en'] : ['en', 'fr'];
  const sections = order.map((language) => `<section lang="${language}"><h1>${escapeHtml(title[language])}</h1>${body[language]}</section>`).join('');
  return `<!doctype html><html lang="${first}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex,nofollow"><meta name="referrer" content="same-origin"><title>${escapeHtml(`${title[first]} · ${brandName}`)}</title><style>${styles}</style></head><body><main><header>${escapeHtml(brandName)}</header>${sections}${tail}</main></body></html>`;
}

export interface PageOptions {
  brandName: string;
  language: PageLanguage;
  /** The form's target: the link's own path. */
  actionPath: string;
}

/** A page for the view, with its HTTP status. */
export function renderLinkPage(link: LinkView, options: PageOptions): { status: 200 | 403 | 404; html: string } {
  const { brandName, language } = options;
  switch (link.kind) {
    case 'not_found':
      return {
        status: 404,
        html: layout(brandName, language, { en: 'Link not found', fr: 'Lien introuvable' }, {
          en: '<p>This approval link is unknown or no longer valid.</p>',
          fr: '<p>Ce lien d’approbation est inconnu ou n’est plus valable.</p>',
        }),
      };
    case 'confirm': {
      const approve = link.decision === 'approve';
      const form = `<form method="post" action="${escapeHtml(options.actionPath)}"><input type="hidden" name="pageToken" value="${escapeHtml(link.pageToken)}"><p><button type="submit" class="${approve ? 'approve' : 'reject'}">${approve ? 'Approve / Approuver' : 'Reject / Refuser'}</button></p></form>`;
      return {
        status: 200,
        html: layout(
          brandName,
          language,
          { en: approve ? 'Approve this request?' : 'Reject this request?', fr: approve ? 'Approuver cette demande ?' : 'Refuser cette demande ?' },
          {
            en: `${summary(link.approval, 'en')}<p class="note">Nothing is decided until you press the button below.</p>`,
            fr: `${summary(link.approval, 'fr')}<p class="note">Rien n’est décidé tant que vous n’appuyez pas sur le bouton ci-dessous.</p>`,
          },
          form,
        ),
      };
    }
    case 'decided': {
      const approve = link.decision === 'approve';
      return {
        status: 200,
        html: layout(brandName, language, { en: approve ? 'Approved' : 'Rejected', fr: approve ? 'Approuvée' : 'Refusée' }, {
          en: `${summary(link.approval, 'en')}<p>${approve ? 'Thank you: the request is approved and the workflow continues.' : 'Thank you: the request is rejected and the workflow continues on its rejection path.'}</p>`,
          fr: `${summary(link.approval, 'fr')}<p>${approve ? 'Merci : la demande est approuvée et le workflow continue.' : 'Merci : la demande est refusée et le workflow continue par sa branche de refus.'}</p>`,
        }),
      };
    }
    case 'closed':
      return {
        status: 200,
        html: layout(brandName, language, { en: 'Already settled', fr: 'Déjà réglée' }, {
          en: `${summary(link.approval, 'en')}<p>${holding(link.approval, 'en')}</p>`,
          fr: `${summary(link.approval, 'fr')}<p>${holding(link.approval, 'fr')}</p>`,
        }),
      };
    case 'refused':
      return refusedPage(options);
  }
}

/** A POST we did not take: no valid page token, or sent from another site. Nothing was decided. */
export function refusedPage(options: Pick<PageOptions, 'brandName' | 'language'>): { status: 403; html: string } {
  return {
    status: 403,
    html: layout(options.brandName, options.language, { en: 'Not confirmed', fr: 'Non confirmée' }, {
      en: '<p>This confirmation did not come from a valid page, or the page is too old. Nothing was decided: open the link from the email again and confirm.</p>',
      fr: '<p>Cette confirmation ne vient pas d’une page valable, ou la page est trop ancienne. Rien n’a été décidé : rouvrez le lien de l’e-mail et confirmez.</p>',
    }),
  };
}
