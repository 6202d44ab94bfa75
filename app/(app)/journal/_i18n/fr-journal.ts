/** Chaînes françaises du journal des messages et du filtre de période des listes (voir en-journal.ts). */
import type { enJournal, enListWindow } from './en-journal';

export const frJournal: typeof enJournal = {
  metaTitle: 'Journal des messages',
  title: 'Journal des messages',
  description: 'Chaque nouveau courrier reçu par vos boîtes, du plus récent au plus ancien, et ce qu’il a donné : les workflows démarrés, ou pourquoi aucun ne l’a été.',
  columns: { date: 'Reçu', mailbox: 'Boîte', message: 'Message', outcome: 'Résultat', rule: 'Règle' },
  outcomes: {
    dispatched: 'Workflows démarrés',
    unmatched: 'Aucun workflow correspondant',
    excluded_org: 'Exclu par l’organisation',
    excluded_member: 'Exclu par vous',
    guardrail: 'Arrêté par un garde-fou',
  },
  rules: {
    from_self: 'Envoyé depuis cette boîte',
    delivery_report: 'Avis de remise',
    auto_reply: 'Réponse automatique',
    no_reply: 'Expéditeur « no-reply »',
    mailing_list: 'Liste de diffusion',
    bulk: 'Envoi en masse',
    exclusion: 'Exclusion d’expéditeur',
  },
  otherRule: 'Autre règle',
  filters: {
    label: 'Filtres',
    outcome: 'Résultat',
    anyOutcome: 'Tous les résultats',
    mailbox: 'Boîte',
    anyMailbox: 'Toutes les boîtes',
    clear: 'Effacer les filtres',
  },
  noSubject: '(sans objet)',
  gone: 'Plus dans le miroir',
  fromSender: (sender: string) => `De ${sender}`,
  removedMailbox: 'Boîte supprimée',
  empty: {
    title: 'Aucun courrier journalisé pour l’instant',
    body: 'Le journal garde la trace de chaque nouveau courrier arrivé dans vos boîtes et de ce qu’il a donné : les workflows démarrés, ou pourquoi aucun ne l’a été (aucun workflow ne correspondait, une exclusion d’expéditeur, un garde-fou qui écarte le courrier automatique ou les envois en masse). Connectez une boîte et publiez un workflow de courrier : le nouveau courrier apparaîtra ici.',
  },
  emptyFiltered: { title: 'Aucune entrée ne correspond à ces filtres', body: 'Retirez un filtre pour voir davantage du journal.' },
  end: 'Fin du journal.',
};

export const frListWindow: typeof enListWindow = {
  label: 'Période',
  since: (bound: string) => `Depuis le ${bound}`,
  until: (bound: string) => `Jusqu’au ${bound}`,
  remove: 'Retirer le filtre de période',
  mailbox: 'Boîte',
  anyMailbox: 'Toutes les boîtes',
};
