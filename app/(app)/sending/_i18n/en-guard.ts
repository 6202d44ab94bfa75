/** English strings of the blast-radius guard: send holds (banner, notification `send.held`). */
import { pluralEn as plural } from '../../../i18n/plural';

type Reason = 'mailbox_hourly_cap' | 'workflow_hourly_cap' | 'auto_reply_loop' | 'repeat_recipient';

export interface HoldFacts {
  mailboxAddress: string;
  workflowName: string;
  /** From the hold's details (0 or '' when unknown). */
  limit: number;
  windowMinutes: number;
  counterpart: string;
}

export const enSendGuard = {
  bannerTitle: (count: number) => (count === 1 ? 'Sending is on hold' : `${count} send holds`),
  bannerIntro: 'The guard stopped some automated sends before they could embarrass you. Nothing was dropped: release a hold to send what it keeps.',
  reasons: {
    mailbox_hourly_cap: 'Hourly sending limit of the mailbox reached',
    workflow_hourly_cap: 'Hourly sending limit of the workflow reached',
    auto_reply_loop: 'Replies to an automatic reply: possible mail loop',
    repeat_recipient: 'The same recipient again and again',
  } satisfies Record<Reason, string>,
  why: {
    mailbox_hourly_cap: (f: HoldFacts) => `${f.mailboxAddress || 'This mailbox'} sent ${plural(f.limit, 'message', 'messages')} within an hour; further sends wait for you.`,
    workflow_hourly_cap: (f: HoldFacts) => `“${f.workflowName || 'The workflow'}” sent ${plural(f.limit, 'message', 'messages')} within an hour; it is paused and its sends wait for you.`,
    auto_reply_loop: (f: HoldFacts) =>
      `“${f.workflowName || 'The workflow'}” kept answering automatic replies from ${f.counterpart || 'one sender'} (${plural(f.limit, 'send', 'sends')} within ${f.windowMinutes} minutes); it is paused.`,
    repeat_recipient: (f: HoldFacts) => `“${f.workflowName || 'The workflow'}” wrote to ${f.counterpart || 'one recipient'} ${plural(f.limit, 'time', 'times')} within an hour; it is paused.`,
  } satisfies Record<Reason, (facts: HoldFacts) => string>,
  held: (count: number) => `${plural(count, 'message', 'messages')} held`,
  since: (when: string) => `since ${when}`,
  release: 'Release',
  releasing: 'Releasing…',
  releaseLabel: (reason: string) => `Release the hold: ${reason}`,
  released: 'Released: the held messages are being sent.',
  loadFailed: 'Could not load the send holds.',
  notification: {
    title: (reason: Reason | string, where: string) => {
      const known: Record<string, string> = {
        mailbox_hourly_cap: `Sends of ${where} are on hold: hourly limit reached`,
        workflow_hourly_cap: `Sends of “${where}” are on hold: hourly limit reached`,
        auto_reply_loop: `Sends of “${where}” are on hold: it kept answering automatic replies`,
        repeat_recipient: `Sends of “${where}” are on hold: the same recipient again and again`,
      };
      return known[reason] ?? `Sends of ${where} are on hold`;
    },
    body: (heldCount: number, paused: boolean) =>
      `${plural(heldCount, 'message is', 'messages are')} held, nothing was sent or dropped.${paused ? ' The workflow is paused.' : ''} Review and release the hold to send them.`,
  },
};

export const enSendGuardErrors = {
  'send_hold.not_found': 'This send hold no longer exists.',
};
