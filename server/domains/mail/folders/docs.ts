/**
 * The en/fr prose (summary and description) of foldersRouter's routes, one entry per procedure:
 * it lives here so that router.ts reads as wiring (procedure → service).
 */

export const docs = {
  list: {
    summary: { en: 'List folders', fr: 'Lister les dossiers' },
    description: {
      en: 'Folders with their unread and total message counts, read from the mirror. The system roles come first and always (`inbox`, `starred`, `sent`, `drafts`, `archive`, `all`, `spam`, `trash`; `starred` counts flagged messages and `all` every message outside trash and spam), then personal folders by key with `parentKey` and `depth`. With `mailboxId`, system folders carry that mailbox’s own keys (a role it has no folder for is keyed by the role name); without it, your mailboxes are aggregated: system folders by role, keyed by the role name, personal folders by key. Every `key` is a valid `folder` for GET /api/v1/threads. `capabilities.permanentDelete` is true when every mailbox concerned can delete for good (IMAP and mail_provider_b can, mail_provider_a cannot). A `mailboxId` that is not one of yours is 400 `request.bad_request`.',
      fr: 'Les dossiers avec leurs nombres de messages non lus et au total, lus dans le miroir. Les rôles système d’abord et toujours (`inbox`, `starred`, `sent`, `drafts`, `archive`, `all`, `spam`, `trash` ; `starred` compte les messages suivis et `all` tous les messages hors corbeille et indésirables), puis les dossiers personnels par clé avec `parentKey` et `depth`. Avec `mailboxId`, les dossiers système portent les clés propres à cette boîte (un rôle sans dossier dans la boîte a pour clé le nom du rôle) ; sans lui, vos boîtes sont regroupées : dossiers système par rôle, avec le nom du rôle pour clé, dossiers personnels par clé. Chaque `key` est un `folder` valide pour GET /api/v1/threads. `capabilities.permanentDelete` vaut true quand toutes les boîtes concernées peuvent supprimer définitivement (IMAP et mail_provider_b le peuvent, pas mail_provider_a). Un `mailboxId` qui n’est pas l’une de vos boîtes donne 400 `request.bad_request`.',
    },
  },
};
