/** French strings of Settings → Exclusions (expéditeurs dont le courrier ne démarre aucun workflow). */
import type { enExclusionErrors, enExclusions } from './en-exclusions';

export const frExclusions: typeof enExclusions = {
  metaTitle: 'Exclusions',
  title: 'Expéditeurs exclus',
  description: 'Le courrier de ces expéditeurs ou domaines ne démarre aucun workflow.',
  explanation:
    'Les exclusions sont vérifiées avant tout déclencheur de courrier\u00a0: un message d’une adresse exclue, ou d’un domaine exclu ou de l’un de ses sous-domaines, ne démarre aucun workflow. Le journal des messages indique pour ce courrier le résultat excluded_member (votre liste) ou excluded_org (la liste de l’organisation).',
  mine: 'Mes exclusions',
  mineDescription: 'S’appliquent à vos seuls workflows.',
  org: 'Exclusions de l’organisation',
  orgDescription: 'S’appliquent aux workflows de tous les membres. Seuls les administrateurs voient et modifient cette liste.',
  kinds: { address: 'Adresse', domain: 'Domaine' },
  columns: { kind: 'Type', value: 'Valeur', note: 'Note', added: 'Ajoutée le', actions: 'Actions' },
  emptyMine: { title: 'Aucune exclusion', body: 'Ajoutez une adresse ou un domaine dont le courrier ne doit jamais démarrer vos workflows.' },
  emptyOrg: { title: 'Aucune exclusion de l’organisation', body: 'Ajoutez une adresse ou un domaine dont le courrier ne doit démarrer le workflow de personne.' },
  form: {
    title: 'Ajouter une exclusion',
    kind: 'Type',
    value: 'Valeur',
    valuePlaceholder: { address: 'quelquun@example.com', domain: 'example.com' },
    valueHint: { address: 'L’adresse e-mail d’un expéditeur.', domain: 'Le domaine et tous ses sous-domaines. Noms internationaux sous leur forme punycode (xn--…).' },
    preview: (stored: string) => `Sera enregistré sous la forme ${stored}`,
    note: 'Note',
    notePlaceholder: 'Pourquoi cet expéditeur est exclu',
    submit: 'Ajouter l’exclusion',
    submitting: 'Ajout…',
    added: (value: string) => `${value} est exclu.`,
  },
  messages: {
    valueRequired: 'Saisissez une adresse ou un domaine.',
    invalidAddress: 'Saisissez une adresse e-mail, par exemple quelquun@example.com.',
    invalidDomain: 'Saisissez un nom de domaine, par exemple example.com (sans @, avec au moins un point).',
    valueTooLong: (max: number) => `${max} caractères au plus.`,
    noteTooLong: (max: number) => `La note compte ${max} caractères au plus.`,
    duplicate: 'Cet expéditeur ou ce domaine figure déjà dans la liste.',
    limitReached: 'La liste est pleine (1\u00a0000 entrées). Retirez d’abord une entrée.',
  },
  delete: 'Supprimer',
  deleteLabel: (value: string) => `Supprimer l’exclusion ${value}`,
  deleteTitle: (value: string) => `Ne plus exclure «\u00a0${value}\u00a0»\u00a0?`,
  deleteBody: 'Le courrier de cet expéditeur peut de nouveau démarrer des workflows à partir de maintenant. Le courrier déjà reçu n’est pas retraité.',
  deleteConfirm: 'Supprimer l’exclusion',
  deleting: 'Suppression…',
};

export const frExclusionErrors: typeof enExclusionErrors = {
  'exclusion.not_found': 'Cette exclusion n’existe plus.',
  'exclusion.duplicate': 'Cet expéditeur ou ce domaine est déjà exclu.',
  'exclusion.limit_reached': 'La liste des expéditeurs exclus est pleine\u00a0: retirez-en un d’abord.',
};
