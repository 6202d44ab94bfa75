/**
 * The en/fr prose (summary and description) of messagesRouter's routes, one entry per procedure:
 * it lives here so that router.ts reads as wiring (procedure → service).
 */
import { qGrammar } from '../schemas';

export const docs = {
  list: {
    summary: { en: 'List messages', fr: 'Lister les messages' },
    description: {
      en: `Message summaries of your mailboxes (or of \`mailboxId\`), every folder, most recent first. Cursor pagination: \`limit\` 1-200 (default 50; above is 400), \`cursor\` the previous page’s \`nextCursor\` (null at the end; stable when mail arrives; an unreadable cursor gives the first page). \`signals\` says what kind of mail each is: \`isAutoReply\` (automatic mail by RFC 3834, out-of-office replies), \`isNoReply\`, \`isMailingList\`, \`isFromSelf\`, and, added to the spec’s four, \`isBulk\` (newsletters and other mass mail), \`isDeliveryReport\` (bounces, read receipts) and \`isCalendar\` (invitations); \`Precedence: bulk\` makes bulk mail, not an auto-reply. \`q\`: ${qGrammar}`,
      fr: `Les résumés des messages de vos boîtes (ou de \`mailboxId\`), tous dossiers, du plus récent au plus ancien. Pagination par curseur : \`limit\` 1-200 (50 par défaut ; au-delà, 400), \`cursor\` le \`nextCursor\` de la page précédente (null à la fin ; stable quand du courrier arrive ; un curseur illisible donne la première page). \`signals\` dit de quel genre de courrier il s’agit : \`isAutoReply\` (courrier automatique au sens de la RFC 3834, réponses d’absence), \`isNoReply\`, \`isMailingList\`, \`isFromSelf\` et, en plus des quatre de la spécification, \`isBulk\` (lettres d’information et autres envois en masse), \`isDeliveryReport\` (avis de non-remise, accusés de lecture) et \`isCalendar\` (invitations) ; \`Precedence: bulk\` désigne un envoi en masse, pas une réponse automatique. \`q\` : les mots sont cherchés comme débuts de mots dans le sujet, l’aperçu et l’expéditeur (nom ou adresse), tous à la fois ; \`"une phrase"\` cherche ces caractères dans cet ordre ; \`from:mot\` (ou \`from:"Un Nom"\`) ne regarde que l’expéditeur ; \`-terme\` exclut. Sans casse ; 200 caractères et 10 termes au plus.`,
    },
  },
  get: {
    summary: { en: 'Read a message', fr: 'Lire un message' },
    description: {
      en: 'The full message: summary fields plus `threadId`, `classification`, `bodyText`, `bodyHtmlSafe` (sanitised on every read, never stored: scripts, event handlers, forms, frames and active URLs removed, remote images blocked unless `allowRemoteImages=true`, `cid:` images pointed at their download paths; a whole document for a sandboxed frame), `hasRemoteImages`, `bodyComplete`, `headersSubset` and `attachments` with their `downloadUrl` (a path relative to the service). A body not mirrored yet is fetched from the server first; when the server cannot be reached, the answer is what the mirror has, with `bodyComplete: false`. A message outside your mailboxes is 404 `request.not_found`.',
      fr: 'Le message complet : les champs du résumé plus `threadId`, `classification`, `bodyText`, `bodyHtmlSafe` (assaini à chaque lecture, jamais enregistré : scripts, gestionnaires d’événements, formulaires, cadres et URL actives retirés, images distantes bloquées sauf avec `allowRemoteImages=true`, images `cid:` dirigées vers leur chemin de téléchargement ; un document entier pour un cadre isolé), `hasRemoteImages`, `bodyComplete`, `headersSubset` et `attachments` avec leur `downloadUrl` (un chemin relatif au service). Un corps pas encore dans le miroir est d’abord récupéré sur le serveur ; si le serveur est injoignable, la réponse donne ce que le miroir contient, avec `bodyComplete: false`. Un message hors de vos boîtes donne 404 `request.not_found`.',
    },
  },
  unsubscribe: {
    summary: { en: 'Unsubscribe in one click', fr: 'Se désabonner en un clic' },
    description: {
      en: 'Leaves the mailing list a message came from, the RFC 8058 way: when its `List-Unsubscribe` names an https URL and its `List-Unsubscribe-Post` is `List-Unsubscribe=One-Click` (the message’s `listUnsubscribe.oneClick`), the service POSTs `List-Unsubscribe=One-Click` to that URL, through the network guard, with no cookie or credential, without following redirects, within 10 s. Answers `{unsubscribed: true, host, status}` when the list answers 2xx or 3xx; the action is audited (the host only). A message with no one-click header is 409 `webmail.unsubscribe_unavailable` (a `mailto:` one is in `listUnsubscribe.mailto`: send that mail instead); a list that refuses, cannot be reached or is not allowed is 502 `webmail.unsubscribe_failed` (`details.host`, `details.reason`); a message outside your mailboxes is 404 `webmail.message_not_found`.',
      fr: 'Quitte la liste de diffusion d’où vient un message, selon la RFC 8058 : quand son `List-Unsubscribe` donne une URL https et que son `List-Unsubscribe-Post` vaut `List-Unsubscribe=One-Click` (`listUnsubscribe.oneClick` du message), le service envoie en POST `List-Unsubscribe=One-Click` à cette URL, à travers la garde réseau, sans cookie ni identifiant, sans suivre de redirection, en 10 s au plus. Répond `{unsubscribed: true, host, status}` quand la liste répond 2xx ou 3xx ; l’action est journalisée (l’hôte seulement). Un message sans en-tête en un clic donne 409 `webmail.unsubscribe_unavailable` (un `mailto:` est dans `listUnsubscribe.mailto` : envoyez plutôt ce courrier) ; une liste qui refuse, injoignable ou non autorisée donne 502 `webmail.unsubscribe_failed` (`details.host`, `details.reason`) ; un message hors de vos boîtes 404 `webmail.message_not_found`.',
    },
  },
};
