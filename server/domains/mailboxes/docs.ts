/**
 * The en/fr prose (summary and description) of mailboxesRouter's routes, one entry per procedure:
 * it lives here so that router.ts reads as wiring (procedure → service).
 */
import { healthListLimit } from './health';

export const docs = {
  list: {
    summary: { en: 'List my mailboxes', fr: 'Lister mes boîtes aux lettres' },
    description: {
      en: 'Every mailbox of the calling member, whatever its status, oldest connection first, with its sync figures (`lastDeltaAt`, `lastSuccessfulSyncAt`, `messageCount`), its `backfill` progress (null until one is asked for) and its `lastError` (null when none).',
      fr: 'Toutes les boîtes du membre, quel que soit leur état, de la plus ancienne connexion à la plus récente, avec leurs chiffres de synchronisation (`lastDeltaAt`, `lastSuccessfulSyncAt`, `messageCount`), la progression du `backfill` (null tant qu’aucun n’a été demandé) et la `lastError` (null s’il n’y en a pas).',
    },
  },
  health: {
    summary: { en: 'Mailbox health', fr: 'Santé des boîtes aux lettres' },
    description: {
      en: `Per mailbox of the calling member: its \`state\` (\`disconnected\`, \`error\`, \`stalled\`, \`syncing\`, \`healthy\`: the first that applies), the last successful sync and the last delta, how new mail is watched (\`watch.mode\` \`idle\`, \`polling\` or \`provider_history\`) and whether the runner's heartbeat of that watch is recent (\`watch.alive\`), the last error (never a secret), the OAuth access token's expiry and last refresh (null for IMAP), the dispatch lag (mail mirrored but not yet journaled: how many, the oldest) and, when the runner's watchdog found the mailbox silent, since when and why (\`stalled\`; a \`mailbox.stalled\` notification was raised once, \`mailbox.recovered\` follows when it heals). \`scope=org\` (administrators only, else 403 \`auth.forbidden\`) lists every member's mailboxes, without content. At most ${healthListLimit}, oldest connection first.`,
      fr: `Pour chaque boîte du membre : son \`state\` (\`disconnected\`, \`error\`, \`stalled\`, \`syncing\`, \`healthy\` : le premier qui s’applique), la dernière synchronisation réussie et le dernier delta, la façon dont le nouveau courrier est surveillé (\`watch.mode\` \`idle\`, \`polling\` ou \`provider_history\`) et si le signe de vie de cette surveillance est récent (\`watch.alive\`), la dernière erreur (jamais un secret), l’expiration et le dernier renouvellement du jeton OAuth (null pour IMAP), le retard de distribution (courrier copié mais pas encore journalisé : combien, le plus ancien) et, quand la surveillance du runner a trouvé la boîte muette, depuis quand et pourquoi (\`stalled\` ; une notification \`mailbox.stalled\` a été émise une fois, \`mailbox.recovered\` suit au rétablissement). \`scope=org\` (administrateurs seulement, sinon 403 \`auth.forbidden\`) liste les boîtes de tous les membres, sans contenu. Au plus ${healthListLimit}, de la plus ancienne connexion à la plus récente.`,
    },
  },
  connectImap: {
    summary: { en: 'Connect an IMAP/SMTP mailbox', fr: 'Connecter une boîte IMAP/SMTP' },
    description: {
      en: 'Probes the IMAP server, then the SMTP server, for real (login included) before anything is stored; a refusal names the server in its code (`imap.*`, `smtp.*`) and `details.server`. Defaults: `imapPort` 993, `imapSecure` true, `smtpPort` 465, `smtpSecure` true, `username` the address, `allowInvalidCertificate` false. The password is stored encrypted and never appears in an answer or a log; without an instance encryption key the route answers `credentials.encryption_disabled` before probing. Connecting an address already known replaces its password and settings and makes it active again (`created: false`). The first sync is queued at once.',
      fr: 'Teste réellement le serveur IMAP puis le serveur SMTP (connexion comprise) avant de rien enregistrer ; un refus nomme le serveur dans son code (`imap.*`, `smtp.*`) et dans `details.server`. Valeurs par défaut : `imapPort` 993, `imapSecure` true, `smtpPort` 465, `smtpSecure` true, `username` l’adresse, `allowInvalidCertificate` false. Le mot de passe est chiffré et n’apparaît dans aucune réponse ni aucun journal ; sans clé de chiffrement de l’instance, la route répond `credentials.encryption_disabled` avant tout test. Connecter une adresse déjà connue remplace son mot de passe et ses réglages et la réactive (`created: false`). La première synchronisation est planifiée aussitôt.',
    },
  },
  sync: {
    summary: { en: 'Sync a mailbox now', fr: 'Synchroniser une boîte maintenant' },
    description: {
      en: 'Queues a delta sync. `enqueued: false` means one was already waiting (not a failure). A mailbox that is not active is 409 `mailbox.not_active`; another member’s mailbox is 404.',
      fr: 'Planifie une synchronisation incrémentale. `enqueued: false` signifie qu’une attendait déjà (ce n’est pas un échec). Une boîte non active donne 409 `mailbox.not_active` ; la boîte d’un autre membre donne 404.',
    },
  },
  resync: {
    summary: { en: 'Re-read a past window', fr: 'Relire une période passée' },
    description: {
      en: 'Re-reads the mail received since `since` (in the past and within 92 days, else `mailbox.resync_window_invalid`), in slices: flags and folders refreshed, missing messages added. Silent: nothing is journaled and no workflow is dispatched. Idempotent; a resync still waiting is replaced by the new window.',
      fr: 'Relit le courrier reçu depuis `since` (dans le passé et depuis au plus 92 jours, sinon `mailbox.resync_window_invalid`), par tranches : drapeaux et dossiers mis à jour, messages manquants ajoutés. Silencieux : rien n’est journalisé et aucun workflow n’est déclenché. Idempotent ; une relecture encore en attente est remplacée par la nouvelle période.',
    },
  },
  backfill: {
    summary: { en: 'Mirror older mail', fr: 'Rapatrier le courrier plus ancien' },
    description: {
      en: 'Mirrors mail older than what the sync brought, down to `since` (a past date-time; null or absent: everything), in slices. Answers the mailbox’s `backfill` (status `pending`); its progress (`progressPct`, `oldestSyncedAt`) is then read from the mailbox. Asking again for the same window while one is pending or running changes nothing (`enqueued: false`); another window restarts it. Backfilled mail is never dispatched to workflows. A mailbox that is not active is 409 `mailbox.not_active`.',
      fr: 'Rapatrie le courrier plus ancien que celui de la synchronisation, jusqu’à `since` (une date passée ; null ou absent : tout), par tranches. Renvoie le `backfill` de la boîte (état `pending`) ; sa progression (`progressPct`, `oldestSyncedAt`) se lit ensuite sur la boîte. Redemander la même période pendant qu’il attend ou tourne ne change rien (`enqueued: false`) ; une autre période le relance. Le courrier rapatrié n’est jamais transmis aux workflows. Une boîte non active donne 409 `mailbox.not_active`.',
    },
  },
  removalImpact: {
    summary: { en: 'What removing a mailbox would affect', fr: 'Ce que retirer une boîte affecterait' },
    description: {
      en: 'Before a disconnect or a delete: the mirrored messages, the executions still pending and the workflows linked to the mailbox (`trigger`: started by its mail; `sender`: sending from it).',
      fr: 'Avant une déconnexion ou une suppression : les messages copiés, les exécutions encore en cours et les workflows liés à la boîte (`trigger` : démarrés par son courrier ; `sender` : envoyant depuis elle).',
    },
  },
  disconnect: {
    summary: { en: 'Disconnect a mailbox', fr: 'Déconnecter une boîte' },
    description: {
      en: 'Idempotent, no confirmation. Sync stops, the mailbox’s own secret is removed (`credential`: `deleted` for an IMAP password or an OAuth grant used only for mail, `kept` when the grant still serves another capability, `none` when nothing was stored, as on a second call), linked workflows are disarmed (`disarmedWorkflows`) and a `mailbox.removed` notification (`mode: disconnected`) is recorded. The mirrored history stays readable. Reconnecting an IMAP mailbox is connecting it again.',
      fr: 'Idempotent, sans confirmation. La synchronisation s’arrête, le secret propre à la boîte est supprimé (`credential` : `deleted` pour un mot de passe IMAP ou une autorisation OAuth servant seulement au courrier, `kept` quand l’autorisation sert encore à autre chose, `none` quand rien n’était enregistré, comme lors d’un second appel), les workflows liés sont désarmés (`disarmedWorkflows`) et une notification `mailbox.removed` (`mode: disconnected`) est enregistrée. L’historique copié reste consultable. Reconnecter une boîte IMAP, c’est la connecter de nouveau.',
    },
  },
  delete: {
    summary: { en: 'Delete a mailbox and its mirror', fr: 'Supprimer une boîte et sa copie' },
    description: {
      en: 'Disconnects the mailbox as the disconnect route does, then deletes it with its whole mirror for good: folders, threads, messages, attachments and their stored content, pending webmail operations. Nothing changes on the mail server. Answers how many messages were deleted and what became of its secret (`credential`, as for a disconnect); a `mailbox.removed` notification (`mode: deleted`) is recorded.',
      fr: 'Déconnecte la boîte comme la route de déconnexion, puis la supprime définitivement avec toute sa copie : dossiers, fils, messages, pièces jointes et leur contenu enregistré, opérations de messagerie en attente. Rien ne change sur le serveur de messagerie. Renvoie le nombre de messages supprimés et ce qu’est devenu son secret (`credential`, comme pour une déconnexion) ; une notification `mailbox.removed` (`mode: deleted`) est enregistrée.',
    },
  },
};
