/**
 * The en/fr prose (summary and description) of supportRouter's routes, one entry per procedure: it
 * lives here so that router.ts reads as wiring (procedure → service).
 */

const session = {
  en: 'Member sessions only: an API key gets 403 `api_key.session_required`.',
  fr: 'Sessions de membre uniquement : une clé d’API reçoit 403 `api_key.session_required`.',
};

const visibility = {
  en: 'An administrator sees the organisation’s threads, a member their own; another member’s thread, an unknown or a malformed id is 404 `support.not_found`.',
  fr: 'Un administrateur voit les fils de l’organisation, un membre les siens ; le fil d’un autre membre, un identifiant inconnu ou mal formé donnent 404 `support.not_found`.',
};

const write = {
  en: 'Stored on the instance first and answered at once: the new message has `pending: true`, and the thread too until every message of it is delivered to the team operating the instance (the runner delivers them, with retries, in order). An instance not linked to its operator’s control plane answers 409 `support.not_linked`. Every input error is 400 `support.bad_request` (text is trimmed before its bounds are checked; an unknown field is refused). Answers the full thread.',
  fr: 'Enregistré d’abord sur l’instance et répondu aussitôt : le nouveau message a `pending: true`, et le fil aussi tant que tous ses messages ne sont pas remis à l’équipe qui exploite l’instance (le runner les remet, avec des reprises, dans l’ordre). Une instance non reliée au plan de contrôle de son opérateur répond 409 `support.not_linked`. Toute erreur de saisie donne 400 `support.bad_request` (le texte est rogné avant le contrôle de ses bornes ; un champ inconnu est refusé). Renvoie le fil complet.',
};

const scope = {
  en: 'An administrator sees the organisation’s threads, a member their own.',
  fr: 'Un administrateur voit les fils de l’organisation, un membre les siens.',
};

const unread = {
  en: '`unread` is yours: a team message arrived after you last read the thread (`POST …/read`); another reader’s reading does not count.',
  fr: '`unread` vous est propre : un message de l’équipe est arrivé depuis votre dernière lecture du fil (`POST …/read`) ; la lecture d’un autre ne compte pas.',
};

export const docs = {
  overview: {
    summary: { en: 'List support threads', fr: 'Lister les fils d’assistance' },
    description: {
      en: `Whether the instance is linked to its operator’s control plane (\`linked\`; when false, the threads already here are listed and writes are refused), the threads as summaries, most recently active first (a message, a status or assignee change), the latest 200 at most (no pages), \`unreadCount\` (how many of the threads you see are unread for you) and \`syncedAt\` (the last successful exchange with the control plane, null before the first). ${scope.en} ${unread.en} ${session.en}`,
      fr: `Si l’instance est reliée au plan de contrôle de son opérateur (\`linked\` ; à false, les fils déjà présents sont listés et les écritures refusées), les fils en résumé, du plus récemment actif au plus ancien (un message, un changement de statut ou de responsable), les 200 derniers au plus (sans pages), \`unreadCount\` (combien des fils que vous voyez sont non lus pour vous) et \`syncedAt\` (le dernier échange réussi avec le plan de contrôle, null avant le premier). ${scope.fr} ${unread.fr} ${session.fr}`,
    },
  },
  get: {
    summary: { en: 'Read a support thread', fr: 'Lire un fil d’assistance' },
    description: {
      en: `The full thread: the summary’s fields and its \`messages\` in order (\`direction\` \`member\` or \`team\`; \`pending\` while a member’s message is not delivered to the team). Reading it does not mark it read: \`POST …/read\` does. ${visibility.en} ${session.en}`,
      fr: `Le fil complet : les champs du résumé et ses \`messages\` dans l’ordre (\`direction\` \`member\` ou \`team\` ; \`pending\` tant que le message d’un membre n’est pas remis à l’équipe). Le lire ne le marque pas comme lu : \`POST …/read\` le fait. ${visibility.fr} ${session.fr}`,
    },
  },
  read: {
    summary: { en: 'Mark a support thread read', fr: 'Marquer un fil d’assistance comme lu' },
    description: {
      en: `Marks every message of the thread so far as read for you alone (an administrator reading a member’s thread leaves it unread for its author) and answers the full thread. ${visibility.en} ${session.en}`,
      fr: `Marque tous les messages du fil jusqu’ici comme lus pour vous seul (un administrateur qui lit le fil d’un membre le laisse non lu pour son auteur) et renvoie le fil complet. ${visibility.fr} ${session.fr}`,
    },
  },
  openRequest: {
    summary: { en: 'Ask the team for something', fr: 'Adresser une demande à l’équipe' },
    description: {
      en: `Opens a thread of kind \`request\` with status \`received\`: \`title\` (1-160 characters) is its subject, \`need\` (1-5,000) its first message. The team moves its status (\`in_study\`, \`quoted\`, \`in_progress\`, \`delivered\`, \`rejected\`) and assigns it. 201. ${write.en} ${session.en}`,
      fr: `Ouvre un fil de type \`request\` au statut \`received\` : \`title\` (1 à 160 caractères) en est le sujet, \`need\` (1 à 5 000) le premier message. L’équipe fait évoluer son statut (\`in_study\`, \`quoted\`, \`in_progress\`, \`delivered\`, \`rejected\`) et l’attribue. 201. ${write.fr} ${session.fr}`,
    },
  },
  openConversation: {
    summary: { en: 'Start a conversation with the team', fr: 'Ouvrir une conversation avec l’équipe' },
    description: {
      en: `Opens a thread of kind \`conversation\` with status \`open\` (the team may close it): \`subject\` (1-160 characters) and \`body\` (1-5,000), its first message. 201. ${write.en} ${session.en}`,
      fr: `Ouvre un fil de type \`conversation\` au statut \`open\` (l’équipe peut le fermer) : \`subject\` (1 à 160 caractères) et \`body\` (1 à 5 000), son premier message. 201. ${write.fr} ${session.fr}`,
    },
  },
  postMessage: {
    summary: { en: 'Write in a support thread', fr: 'Écrire dans un fil d’assistance' },
    description: {
      en: `Adds your message (\`body\`, 1-5,000 characters) to a thread you see, whatever its status (an administrator may write in a member’s thread, under their own name). 201. ${visibility.en} ${write.en} ${session.en}`,
      fr: `Ajoute votre message (\`body\`, 1 à 5 000 caractères) à un fil que vous voyez, quel que soit son statut (un administrateur peut écrire dans le fil d’un membre, sous son propre nom). 201. ${visibility.fr} ${write.fr} ${session.fr}`,
    },
  },
};
