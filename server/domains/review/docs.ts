/**
 * The en/fr prose (summary and description) of reviewRouter's routes, one entry per procedure:
 * it lives here so that router.ts reads as wiring (procedure → service).
 */

export const docs = {
  list: {
    summary: { en: 'List the review queue', fr: 'Lister la file de relecture' },
    description: {
      en: 'Your drafts and sends waiting for review, newest first. Filters `mailboxId`, `workflowId` and `status` (`pending` by default, snoozed items whose time came included; `snoozed`; `unknown`: sends whose outcome is unknown, to settle with `/resolve`; `all`: every item that went through review). Cursor pagination (`limit` 1-100, default 25; above 100 is a 400 `review.bad_request`), stable against insertion; an unreadable cursor gives the first page. `pendingCount` counts your pending items under the same `mailboxId`/`workflowId` filter.',
      fr: 'Vos brouillons et envois en attente de relecture, des plus récents aux plus anciens. Filtres `mailboxId`, `workflowId` et `status` (`pending` par défaut, y compris les éléments reportés dont l’heure est venue ; `snoozed` ; `unknown` : envois à l’issue inconnue, à trancher avec `/resolve` ; `all` : tout élément passé par la relecture). Pagination par curseur (`limit` 1-100, 25 par défaut ; au-delà de 100, 400 `review.bad_request`), stable face aux insertions ; un curseur illisible donne la première page. `pendingCount` compte vos éléments en attente sous le même filtre `mailboxId`/`workflowId`.',
    },
  },
  detail: {
    summary: { en: 'Read a review item', fr: 'Lire un élément à relire' },
    description: {
      en: 'The item with its Cc and Bcc, its bodies (`bodyHtml` sanitised on every read, remote images blocked unless `allowRemoteImages=true`; `hasRemoteImages` tells whether there are any) and its attachments’ names, types and sizes. Another member’s item is 404 `review.not_found`; an item whose content was purged or whose draft disappeared is 410 `review.content_gone`.',
      fr: 'L’élément avec ses Cc et Cci, ses corps (`bodyHtml` assaini à chaque lecture, images distantes bloquées sauf `allowRemoteImages=true` ; `hasRemoteImages` dit s’il y en a) et les noms, types et tailles de ses pièces jointes. L’élément d’un autre membre donne 404 `review.not_found` ; un élément dont le contenu a été purgé ou dont le brouillon a disparu donne 410 `review.content_gone`.',
    },
  },
  send: {
    summary: { en: 'Send a review item', fr: 'Envoyer un élément relu' },
    description: {
      en: 'Records the send of a pending or snoozed item, with optional corrections (`subject` <= 500 one line, `bodyText` <= 200,000, `bodyHtml` <= 400,000: a corrected body replaces the body, the form not given is dropped; `to`, `cc`, `bcc` <= 100 addresses each, at least one recipient in all). The item becomes `sent` with `sendStatus` `pending`: the send is queued, not delivered by this request; follow it in the sending journal. `clientToken` (8-200) names the decision: sending it again answers the same. Already sent or rejected is 409 `review.already_resolved`; purged content or a vanished draft 410 `review.content_gone`; another member’s item 404 `review.not_found`.',
      fr: 'Enregistre l’envoi d’un élément en attente ou reporté, avec des corrections facultatives (`subject` <= 500 sur une ligne, `bodyText` <= 200 000, `bodyHtml` <= 400 000 : un corps corrigé remplace le corps, la forme non fournie est abandonnée ; `to`, `cc`, `bcc` <= 100 adresses chacun, au moins un destinataire en tout). L’élément passe à `sent` avec `sendStatus` `pending` : l’envoi est mis en file, pas effectué par cette requête ; suivez-le dans le journal d’envoi. `clientToken` (8-200) nomme la décision : la renvoyer répond la même chose. Déjà envoyé ou rejeté donne 409 `review.already_resolved` ; un contenu purgé ou un brouillon disparu 410 `review.content_gone` ; l’élément d’un autre membre 404 `review.not_found`.',
    },
  },
  sendMany: {
    summary: { en: 'Send several review items', fr: 'Envoyer plusieurs éléments relus' },
    description: {
      en: 'Records the send of each item of `ids` (1-50) as they are, without corrections. An item that cannot be sent is skipped with its reason (`not_found`, another member’s included; `already_resolved`; `content_gone`) and blocks nothing. `clientToken` (8-200): items already sent with it count as sent again. Answers the ids sent, the ids skipped and your `pendingCount` after.',
      fr: 'Enregistre l’envoi de chaque élément de `ids` (1-50) tel qu’il est, sans correction. Un élément qui ne peut être envoyé est écarté avec sa raison (`not_found`, y compris celui d’un autre membre ; `already_resolved` ; `content_gone`) et ne bloque rien. `clientToken` (8-200) : les éléments déjà envoyés avec lui comptent à nouveau comme envoyés. Répond les identifiants envoyés, ceux écartés et votre `pendingCount` ensuite.',
    },
  },
  reject: {
    summary: { en: 'Reject a review item', fr: 'Rejeter un élément à relire' },
    description: {
      en: 'Rejects a pending or snoozed item: it will never be sent (`sendStatus` `cancelled`). The optional `reason` (<= 1,000) is kept with it and in the sending journal (event `rejected`). Already sent or rejected is 409 `review.already_resolved`; a vanished draft 410 `review.content_gone`; another member’s item 404 `review.not_found`. Answers `{message}`.',
      fr: 'Rejette un élément en attente ou reporté : il ne sera jamais envoyé (`sendStatus` `cancelled`). La raison facultative (`reason`, <= 1 000) est gardée avec lui et dans le journal d’envoi (événement `rejected`). Déjà envoyé ou rejeté donne 409 `review.already_resolved` ; un brouillon disparu 410 `review.content_gone` ; l’élément d’un autre membre 404 `review.not_found`. Répond `{message}`.',
    },
  },
  snooze: {
    summary: { en: 'Snooze a review item', fr: 'Reporter un élément à relire' },
    description: {
      en: 'Puts a pending or snoozed item aside until `until` (in the future, within 30 days, else 400 `review.bad_request`): it leaves the pending queue and comes back to it at that time. Errors as for a rejection. Answers `{message}`.',
      fr: 'Met de côté un élément en attente ou reporté jusqu’à `until` (dans le futur, dans les 30 jours, sinon 400 `review.bad_request`) : il quitte la file d’attente et y revient à ce moment. Erreurs comme pour un rejet. Répond `{message}`.',
    },
  },
  resolve: {
    summary: { en: 'Settle a send whose outcome is unknown', fr: 'Trancher un envoi à l’issue inconnue' },
    description: {
      en: 'For an item whose `sendStatus` is `unknown` (the send was interrupted; it may or may not have left): `verdict` `sent` marks it done without sending again; `resend` queues it again. The verdict is kept in the sending journal (event `resolved`). Any other send status is 409 `review.not_unknown`; resending purged content 410 `review.content_gone`. Answers `{message}`.',
      fr: 'Pour un élément dont `sendStatus` vaut `unknown` (l’envoi a été interrompu ; il est peut-être parti) : `verdict` `sent` le marque fait sans le renvoyer ; `resend` le remet en file. Le verdict est gardé dans le journal d’envoi (événement `resolved`). Tout autre état d’envoi donne 409 `review.not_unknown` ; renvoyer un contenu purgé 410 `review.content_gone`. Répond `{message}`.',
    },
  },
  journal: {
    summary: { en: 'List the sending journal', fr: 'Lister le journal d’envoi' },
    description: {
      en: 'What happened to your sends, newest first: each attempt (`attempt` number, `result` `running`/`done`/`failed`/`unknown`, `providerMessageId`, `errorKind`, `errorMessage`, `startedAt`, `finishedAt`), each rejection with its `reason`, cancels, holds and releases, and verdicts on unknown sends (`resolved`, `result` `sent`/`resend`); with the item’s subject and recipients. Filters `mailboxId`, `outboundId`, `event`. Cursor pagination (`limit` 1-200, default 50; above 200 is a 400).',
      fr: 'Ce qu’il est advenu de vos envois, des plus récents aux plus anciens : chaque tentative (numéro `attempt`, `result` `running`/`done`/`failed`/`unknown`, `providerMessageId`, `errorKind`, `errorMessage`, `startedAt`, `finishedAt`), chaque rejet avec sa raison (`reason`), les annulations, retenues et libérations, et les verdicts sur les envois incertains (`resolved`, `result` `sent`/`resend`) ; avec l’objet et les destinataires de l’élément. Filtres `mailboxId`, `outboundId`, `event`. Pagination par curseur (`limit` 1-200, 50 par défaut ; au-delà de 200, 400).',
    },
  },
};
