/**
 * The en/fr prose (summary and description) of exclusionsRouter's routes, one entry per procedure:
 * it lives here so that router.ts reads as wiring (procedure → service).
 */

const valueRules = {
  en: '`kind` `address` (one sender) or `domain` (every sender of the domain and of its subdomains), `value` the address or domain (ASCII, punycode for international names; stored lower-case, a leading `@` of a domain dropped; anything else 400), optional `note` (≤ 500). The same kind and value again is 409 `exclusion.duplicate`; a list holds at most 1,000 entries (409 `exclusion.limit_reached`).',
  fr: '`kind` `address` (un expéditeur) ou `domain` (tous les expéditeurs du domaine et de ses sous-domaines), `value` l’adresse ou le domaine (ASCII, punycode pour les noms internationaux ; enregistré en minuscules, sans le `@` initial d’un domaine ; sinon 400), `note` facultative (≤ 500). Le même type et la même valeur une seconde fois donnent 409 `exclusion.duplicate` ; une liste compte au plus 1 000 entrées (409 `exclusion.limit_reached`).',
};

export const docs = {
  list: {
    summary: { en: 'List my excluded senders', fr: 'Lister mes expéditeurs exclus' },
    description: {
      en: 'Your own excluded senders and domains, newest first, whole (at most 1,000). Mail from them starts none of your workflows (journal outcome `excluded_member`).',
      fr: 'Vos expéditeurs et domaines exclus, des plus récents aux plus anciens, en entier (1 000 au plus). Leur courrier ne démarre aucun de vos workflows (résultat de journal `excluded_member`).',
    },
  },
  create: {
    summary: { en: 'Exclude a sender or domain', fr: 'Exclure un expéditeur ou un domaine' },
    description: { en: `Adds to your own list. ${valueRules.en}`, fr: `Ajoute à votre propre liste. ${valueRules.fr}` },
  },
  delete: {
    summary: { en: 'Remove one of my excluded senders', fr: 'Retirer un de mes expéditeurs exclus' },
    description: {
      en: 'Removes the entry from your list; answers it as it was. Another member’s entry, or the organisation’s, is 404 `exclusion.not_found`.',
      fr: 'Retire l’entrée de votre liste ; la renvoie telle qu’elle était. L’entrée d’un autre membre, ou celle de l’organisation, donne 404 `exclusion.not_found`.',
    },
  },
  adminList: {
    summary: { en: 'List the organisation’s excluded senders', fr: 'Lister les expéditeurs exclus de l’organisation' },
    description: {
      en: 'Administrators. The organisation’s excluded senders and domains, newest first, whole (at most 1,000). Their mail starts no workflow of any member (journal outcome `excluded_org`).',
      fr: 'Administrateurs. Les expéditeurs et domaines exclus par l’organisation, des plus récents aux plus anciens, en entier (1 000 au plus). Leur courrier ne démarre le workflow d’aucun membre (résultat de journal `excluded_org`).',
    },
  },
  adminCreate: {
    summary: { en: 'Exclude a sender or domain for everyone', fr: 'Exclure un expéditeur ou un domaine pour tous' },
    description: {
      en: `Administrators. Adds to the organisation’s list (audited as \`exclusion.created\`). ${valueRules.en}`,
      fr: `Administrateurs. Ajoute à la liste de l’organisation (journalisé dans l’audit comme \`exclusion.created\`). ${valueRules.fr}`,
    },
  },
  adminDelete: {
    summary: { en: 'Remove an organisation exclusion', fr: 'Retirer une exclusion de l’organisation' },
    description: {
      en: 'Administrators. Removes the entry from the organisation’s list (audited as `exclusion.deleted`); answers it as it was. A member’s own entry is 404 `exclusion.not_found`.',
      fr: 'Administrateurs. Retire l’entrée de la liste de l’organisation (journalisé dans l’audit comme `exclusion.deleted`) ; la renvoie telle qu’elle était. L’entrée propre d’un membre donne 404 `exclusion.not_found`.',
    },
  },
};
