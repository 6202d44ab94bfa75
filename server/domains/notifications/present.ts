/** Stored notifications to the API shape. */
import type { Notification } from '../../generated/prisma/client';
import { iso } from '../../core/http/schemas';
import type { NotificationOutput } from './schemas';

const severities = new Set(['info', 'warning', 'error']);

export function presentNotification(row: Notification): NotificationOutput {
  const params = row.params;
  return {
    id: row.id,
    kind: row.kind,
    // notify() only writes the three; anything else would be a row written by hand.
    severity: (severities.has(row.severity) ? row.severity : 'info') as NotificationOutput['severity'],
    params: typeof params === 'object' && params !== null && !Array.isArray(params) ? (params as Record<string, unknown>) : {},
    link: row.link,
    createdAt: iso(row.createdAt),
    readAt: iso(row.readAt),
  };
}
