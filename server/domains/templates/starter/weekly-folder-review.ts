/**
 * A weekly reminder to review a folder. No node lists a folder's messages yet, so this is a
 * reminder (a notification naming the week), not a digest of the messages themselves.
 */
import { at, setUpNote, type StarterTemplate } from './types';

export const weeklyFolderReview: StarterTemplate = {
  slug: 'weekly-folder-review',
  name: 'Weekly folder review reminder',
  description:
    'Every Monday at 8:00 (Paris time; change the schedule and time zone to yours), adds a notification reminding you to go through a folder (the archive, your invoices, …). It is a reminder, not a digest: no step can list a folder’s messages yet.',
  category: 'digests',
  graph: {
    nodes: [
      { id: 'schedule', type: 'trigger.schedule', version: 1, name: 'Every Monday at 8:00', params: { cron: '0 8 * * 1', timeZone: 'Europe/Paris' }, position: at(0) },
      {
        id: 'week',
        type: 'data.datetime',
        version: 1,
        name: 'Name the week',
        params: { operation: 'format', date: '{{ trigger.firedAt }}', pattern: "'week' I, d MMMM yyyy", timeZone: 'Europe/Paris' },
        position: at(1),
      },
      {
        id: 'remind',
        type: 'notify.owner',
        version: 1,
        name: 'Remind me to review the folder',
        params: {
          title: 'Weekly review, {{ nodes.week.formatted }}',
          body: 'Time to go through the Archive folder: answer what is waiting, file or delete the rest.',
          severity: 'info',
        },
        position: at(2),
      },
    ],
    connections: [
      { from: 'schedule', output: 'main', to: 'week' },
      { from: 'week', output: 'main', to: 'remind' },
    ],
    notes: [setUpNote('Name your folder in the reminder’s text, and set the schedule’s time zone (and the date step’s) to yours.')],
  },
  setUp: [],
};
