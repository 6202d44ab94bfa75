/** French strings of the approvals inbox. */
import type { Dictionary } from '../../../i18n/en';
import type { enApprovalErrors } from './en-approvals';

export const frApprovals: Dictionary['approvals'] = {
  metaTitle: 'Approbations',
  title: 'Approbations',
  description: 'Les décisions qu’attendent vos workflows. Une exécution attend que vous approuviez ou refusiez, ou que l’approbation expire.',
  filters: { label: 'Statut des approbations' },
  status: { pending: 'En attente', approved: 'Approuvées', rejected: 'Refusées', expired: 'Expirées' },
  approve: 'Approuver',
  reject: 'Refuser',
  workflow: 'Workflow',
  openRun: 'Ouvrir l’exécution',
  noTrigger: 'Non lancée par un e-mail',
  fromSender: (sender: string) => `De ${sender}`,
  noSubject: '(sans objet)',
  expiresAt: (date: string) => `Expire le ${date}`,
  expiredAt: (date: string) => `Expirée le ${date}`,
  decidedBy: (who: string, date: string) => `Par ${who}, le ${date}`,
  decidedAt: (date: string) => date,
  cancelledRun: 'L’exécution a été annulée',
  decided: { approved: 'Approuvée : l’exécution continue.', rejected: 'Refusée : l’exécution continue par sa branche de refus.' },
  empty: {
    pending: { title: 'Rien à décider', body: 'Quand un workflow demande votre approbation, elle apparaît ici.' },
    other: { title: 'Aucune approbation ici', body: 'Les approbations de ce statut apparaissent ici.' },
  },
  end: 'Plus d’approbations.',
};

export const frApprovalErrors: Record<keyof typeof enApprovalErrors, string> = {
  'approval.not_found': 'Cette approbation n’existe plus.',
  'approval.already_decided': 'Cette approbation a déjà été décidée, a expiré ou son exécution a été annulée.',
};
