/**
 * The en/fr prose (summary and description) of threadsRouter's routes, one entry per procedure:
 * it lives here so that router.ts reads as wiring (procedure → service).
 */
import { qGrammar } from '../schemas';

export const docs = {
  list: {
    summary: { en: 'List threads', fr: 'Lister les fils' },
    description: {
      en: `Threads of your mailboxes (or of \`mailboxId\`) having a message in \`folder\` (default \`inbox\`; a key from GET /api/v1/folders or a role name; \`all\` leaves out trash and spam, \`starred\` is the flagged threads of \`all\`; an unknown key is 400 \`request.bad_request\`), newest first by \`lastMessageAt\`. \`filter\`: \`all\`, \`unread\`, \`flagged\`, \`attachments\`. \`q\` keeps the threads with a matching message in the folder; \`searchEverywhere=true\` widens the list and the search to every folder, trash and spam included. Cursor pagination: \`limit\` 1-200 (default 50; above is 400), \`cursor\` the previous page’s \`nextCursor\` (null at the end; stable when mail arrives: a thread that gets a new message moves to the top, never into a later page twice). \`q\`: ${qGrammar}`,
      fr: 'Les fils de vos boîtes (ou de `mailboxId`) ayant un message dans `folder` (`inbox` par défaut ; une clé de GET /api/v1/folders ou un nom de rôle ; `all` exclut la corbeille et les indésirables, `starred` est l’ensemble des fils suivis de `all` ; une clé inconnue donne 400 `request.bad_request`), du plus récent au plus ancien selon `lastMessageAt`. `filter` : `all`, `unread`, `flagged`, `attachments`. `q` garde les fils dont un message du dossier correspond ; `searchEverywhere=true` étend la liste et la recherche à tous les dossiers, corbeille et indésirables compris. Pagination par curseur : `limit` 1-200 (50 par défaut ; au-delà, 400), `cursor` le `nextCursor` de la page précédente (null à la fin ; stable quand du courrier arrive). `q` : mots cherchés comme débuts de mots dans le sujet, l’aperçu et l’expéditeur, tous à la fois ; `"une phrase"` telle quelle ; `from:mot` pour l’expéditeur seul ; `-terme` exclut ; 200 caractères et 10 termes au plus.',
    },
  },
  get: {
    summary: { en: 'Read a thread', fr: 'Lire un fil' },
    description: {
      en: 'The thread and its message summaries in reading order (oldest first), every folder included (`folderLabels` tells where each one is). A thread outside your mailboxes is 404 `request.not_found`.',
      fr: 'Le fil et les résumés de ses messages dans l’ordre de lecture (le plus ancien d’abord), tous dossiers compris (`folderLabels` dit où est chacun). Un fil hors de vos boîtes donne 404 `request.not_found`.',
    },
  },
  act: {
    summary: { en: 'Act on a thread', fr: 'Agir sur un fil' },
    description: {
      en: 'Applies `action` to the messages of the thread as they are now, one operation per message concerned: at once in the mirror, then on the real mailbox by the runner. `markRead`/`markUnread`/`flag`/`unflag`: every message. `archive`: those in the inbox, to the archive; `unarchive`: the reverse. `trash`: every message not in trash; `restore`: those in trash, back to the folder they left (else sent mail to sent, the rest to the inbox). `spam`/`notSpam` likewise with spam. `deletePermanently`: the messages in trash or spam, removed for good (not on mail_provider_a mailboxes). `move`: every message not already there, to `folder` (a key or a role name other than `starred`/`all`). `labels` {add, remove} alone change every message’s labels; with an action, those of the messages it concerns. `clientToken` names the request: sending it again answers the same `opId`s with `duplicate: true` and changes nothing (a token already used for another thread or action is 400). A thread of 1,000 messages or more is 409 `webmail.thread_too_large`; an action that concerns no message, an unknown or virtual target folder, `move` without `folder`, a permanent deletion the provider cannot do or a disconnected mailbox is 400 `webmail.unsupported_action` with `details.reason`; a malformed body is 400 `webmail.bad_request`; a thread outside your mailboxes is 404 `webmail.thread_not_found`.',
      fr: 'Applique `action` aux messages du fil tels qu’ils sont maintenant, une opération par message concerné : tout de suite dans le miroir, puis dans la vraie boîte par l’exécuteur. `markRead`/`markUnread`/`flag`/`unflag` : tous les messages. `archive` : ceux de la boîte de réception, vers les archives ; `unarchive` : l’inverse. `trash` : tous les messages hors corbeille ; `restore` : ceux de la corbeille, vers le dossier qu’ils ont quitté (sinon le courrier envoyé vers les envoyés, le reste vers la boîte de réception). `spam`/`notSpam` de même avec les indésirables. `deletePermanently` : les messages de la corbeille ou des indésirables, supprimés pour de bon (pas dans les boîtes mail_provider_a). `move` : tous les messages qui n’y sont pas déjà, vers `folder` (une clé ou un nom de rôle autre que `starred`/`all`). `labels` {add, remove} seul change les libellés de chaque message ; avec une action, ceux des messages qu’elle concerne. `clientToken` nomme la requête : la renvoyer répond les mêmes `opId` avec `duplicate: true` sans rien changer (un jeton déjà employé pour un autre fil ou une autre action donne 400). Un fil de 1 000 messages ou plus donne 409 `webmail.thread_too_large` ; une action qui ne concerne aucun message, un dossier cible inconnu ou virtuel, `move` sans `folder`, une suppression définitive impossible chez le fournisseur ou une boîte déconnectée donne 400 `webmail.unsupported_action` avec `details.reason` ; un corps mal formé donne 400 `webmail.bad_request` ; un fil hors de vos boîtes donne 404 `webmail.thread_not_found`.',
    },
  },
};
