/**
 * The en/fr prose (summary and description) of notificationsRouter's routes, one entry per procedure:
 * it lives here so that router.ts reads as wiring (procedure → service).
 */

export const docs = {
  list: {
    summary: { en: 'List my notifications', fr: 'Lister mes notifications' },
    description: {
      en: 'The signed-in member’s notifications, newest first, archived ones never included. `unread=true` keeps unread ones. Cursor pagination (`limit` 1-100, default 30; above 100 is a 400); an unreadable cursor gives the first page. `unreadCount` counts every unread, not archived notification, whatever the filter.',
      fr: 'Les notifications du membre connecté, des plus récentes aux plus anciennes, sans jamais les archivées. `unread=true` ne garde que les non lues. Pagination par curseur (`limit` 1-100, 30 par défaut ; au-delà de 100, 400) ; un curseur illisible donne la première page. `unreadCount` compte toutes les notifications non lues et non archivées, quel que soit le filtre.',
    },
  },
  read: {
    summary: { en: 'Mark a notification read', fr: 'Marquer une notification comme lue' },
    description: {
      en: 'Marks one of the member’s notifications read; reading it again keeps the first date. Another member’s notification is 404 `request.not_found`. Answers the notification and the new unread count.',
      fr: 'Marque une notification du membre comme lue ; une nouvelle lecture garde la première date. La notification d’un autre membre donne 404 `request.not_found`. Répond la notification et le nouveau nombre de non lues.',
    },
  },
  readAll: {
    summary: { en: 'Mark all my notifications read', fr: 'Marquer toutes mes notifications comme lues' },
    description: {
      en: 'Marks every unread, not archived notification of the member read. `updated` is how many this call marked.',
      fr: 'Marque comme lues toutes les notifications non lues et non archivées du membre. `updated` indique combien cet appel en a marqué.',
    },
  },
  archive: {
    summary: { en: 'Archive a notification', fr: 'Archiver une notification' },
    description: {
      en: 'Removes one of the member’s notifications from the feed for good (archived notifications are deleted after 90 days). Archiving again answers the same. Another member’s notification is 404 `request.not_found`.',
      fr: 'Retire définitivement une notification du membre de son fil (les notifications archivées sont supprimées après 90 jours). Archiver à nouveau répond de même. La notification d’un autre membre donne 404 `request.not_found`.',
    },
  },
};
