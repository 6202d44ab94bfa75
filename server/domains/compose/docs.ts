/**
 * The en/fr prose (summary and description) of composeRouter's routes, one entry per procedure:
 * it lives here so that router.ts reads as wiring (procedure → service).
 */

export const docs = {
  send: {
    summary: { en: 'Send a message', fr: 'Envoyer un message' },
    description: {
      en: 'Sends a new message, a reply (`inReplyTo.mode` `reply` or `replyAll`: In-Reply-To is the original’s Message-ID, References its chain) or a forward (`forward`: the original’s attachments come along unless `includeAttachments` is false) from one of your active mailboxes. `to`, `cc`, `bcc`: at most 100 valid addresses each, at least one recipient in all. `attachments` (at most 20): `{uploadId}` (an upload of yours not used by another message yet) or `{messageId, position}` (an attachment of a message of your mailboxes). The message is recorded, not delivered: it leaves after the undo window (SEND_UNDO_SECONDS, default 10 s; `undoUntil`), or waits in the review queue when `review` is true (`undoUntil` null). Answers 202 `{message: Review item, undoUntil}`. `clientToken` names the request: the same token again answers the same message and sends nothing twice. Errors: a malformed body or no recipient is 400 `webmail.bad_request` (`details.reason`); a mailbox not yours is 404 `mailbox.not_found`, one not active 409 `mailbox.not_active`; a message answered or attached that is not yours is 404 `webmail.message_not_found`; an unknown or expired upload is 404 `request.not_found`.',
      fr: 'Envoie un nouveau message, une réponse (`inReplyTo.mode` `reply` ou `replyAll` : In-Reply-To est le Message-ID de l’original, References sa chaîne) ou un transfert (`forward` : les pièces jointes de l’original suivent sauf si `includeAttachments` vaut false) depuis une de vos boîtes actives. `to`, `cc`, `bcc` : 100 adresses valides au plus chacun, au moins un destinataire en tout. `attachments` (20 au plus) : `{uploadId}` (un fichier téléversé par vous et pas encore utilisé) ou `{messageId, position}` (une pièce jointe d’un message de vos boîtes). Le message est enregistré, pas remis : il part après le délai d’annulation (SEND_UNDO_SECONDS, 10 s par défaut ; `undoUntil`), ou attend dans la file de relecture si `review` vaut true (`undoUntil` nul). Répond 202 `{message: élément de relecture, undoUntil}`. `clientToken` nomme la requête : le même jeton répond le même message sans rien envoyer deux fois. Erreurs : un corps mal formé ou aucun destinataire donne 400 `webmail.bad_request` (`details.reason`) ; une boîte qui n’est pas à vous 404 `mailbox.not_found`, une boîte inactive 409 `mailbox.not_active` ; un message cité ou joint qui n’est pas à vous 404 `webmail.message_not_found` ; un fichier téléversé inconnu ou expiré 404 `request.not_found`.',
    },
  },
  undo: {
    summary: { en: 'Undo a send', fr: 'Annuler un envoi' },
    description: {
      en: 'Cancels a message sent from the webmail while its undo window lasts (`undoUntil`) and it has not started leaving: `sendStatus` becomes `cancelled` (a `cancelled` entry in the sending journal). Undoing it again answers the same. Too late (the window is over, the send started, or the message went to the review queue) is 409 `webmail.undo_expired`; a message that is not yours is 404 `webmail.message_not_found`.',
      fr: 'Annule un message envoyé depuis la messagerie tant que dure son délai d’annulation (`undoUntil`) et qu’il n’a pas commencé à partir : `sendStatus` devient `cancelled` (une entrée `cancelled` dans le journal d’envoi). L’annuler de nouveau répond la même chose. Trop tard (délai écoulé, envoi commencé, ou message parti en relecture) donne 409 `webmail.undo_expired` ; un message qui n’est pas à vous 404 `webmail.message_not_found`.',
    },
  },
  replyContext: {
    summary: { en: 'Prefill an answer', fr: 'Préremplir une réponse' },
    description: {
      en: 'What a reply (`mode=reply`: to the Reply-To or the sender), a reply to all (`replyAll`: also the original’s To and Cc, without the mailbox’s own address, each address once) or a forward (`forward`: no recipient, the original’s attachments) starts with: `{mailboxId, to, cc, subject, quotedText, attachments}`. A message that is not yours is 404 `webmail.message_not_found`.',
      fr: 'Ce par quoi commence une réponse (`mode=reply` : au Reply-To ou à l’expéditeur), une réponse à tous (`replyAll` : aussi les To et Cc de l’original, sans l’adresse de la boîte, chaque adresse une fois) ou un transfert (`forward` : aucun destinataire, les pièces jointes de l’original) : `{mailboxId, to, cc, subject, quotedText, attachments}`. Un message qui n’est pas à vous donne 404 `webmail.message_not_found`.',
    },
  },
  recipientSuggestions: {
    summary: { en: 'Suggest recipients', fr: 'Suggérer des destinataires' },
    description: {
      en: 'Recipients for compose’s autocompletion, from one of your mailboxes’ point of view: first the address book entries you see (a shared card, your own or one of your mailbox cards) whose address or display name contains `q`, then the mailbox’s frequent correspondents (senders of the mail it received and recipients of the mail it sent, among its latest 2,000 messages) whose address or name contains it, most frequent first; each address once, at most `limit` (1-20, default 10). Each suggestion carries its resolved `displayName` and `status`. Another member’s cards never show. A mailbox that is not yours is 404 `mailbox.not_found`; a malformed query 400 `webmail.bad_request`. Needs `messages:read` only: the address book is read as you see it.',
      fr: 'Des destinataires pour l’autocomplétion de la rédaction, du point de vue d’une de vos boîtes : d’abord les fiches du carnet d’adresses que vous voyez (une carte partagée, la vôtre ou une carte d’une de vos boîtes) dont l’adresse ou le nom affiché contient `q`, puis les correspondants fréquents de la boîte (expéditeurs du courrier reçu et destinataires du courrier envoyé, parmi ses 2 000 derniers messages) dont l’adresse ou le nom le contient, les plus fréquents d’abord ; chaque adresse une fois, `limit` au plus (1 à 20, 10 par défaut). Chaque suggestion porte son `displayName` et son `status` résolus. Les cartes d’un autre membre n’apparaissent jamais. Une boîte qui n’est pas à vous donne 404 `mailbox.not_found` ; une requête mal formée 400 `webmail.bad_request`. Ne demande que `messages:read` : le carnet est lu tel que vous le voyez.',
    },
  },
};
