/** French strings of the blast-radius guard (retenues d’envoi : bannière, notification `send.held`). */
import type { enSendGuard, enSendGuardErrors, HoldFacts } from './en-guard';
import { pluralFr as plural } from '../../../i18n/plural';

export const frSendGuard: typeof enSendGuard = {
  bannerTitle: (count: number) => (count === 1 ? 'Des envois sont retenus' : `${count} retenues d’envoi`),
  bannerIntro: 'Le garde-fou a arrêté des envois automatiques avant qu’ils ne vous embarrassent. Rien n’est perdu\u00a0: levez une retenue pour envoyer ce qu’elle garde.',
  reasons: {
    mailbox_hourly_cap: 'Limite horaire d’envoi de la boîte atteinte',
    workflow_hourly_cap: 'Limite horaire d’envoi du workflow atteinte',
    auto_reply_loop: 'Réponses à une réponse automatique\u00a0: boucle possible',
    repeat_recipient: 'Le même destinataire encore et encore',
  },
  why: {
    mailbox_hourly_cap: (f: HoldFacts) => `${f.mailboxAddress || 'Cette boîte'} a envoyé ${plural(f.limit, 'message', 'messages')} en une heure\u00a0; les envois suivants vous attendent.`,
    workflow_hourly_cap: (f: HoldFacts) => `«\u00a0${f.workflowName || 'Le workflow'}\u00a0» a envoyé ${plural(f.limit, 'message', 'messages')} en une heure\u00a0; il est en pause et ses envois vous attendent.`,
    auto_reply_loop: (f: HoldFacts) =>
      `«\u00a0${f.workflowName || 'Le workflow'}\u00a0» répondait sans cesse aux réponses automatiques de ${f.counterpart || 'un expéditeur'} (${plural(f.limit, 'envoi', 'envois')} en ${f.windowMinutes}\u00a0minutes)\u00a0; il est en pause.`,
    repeat_recipient: (f: HoldFacts) => `«\u00a0${f.workflowName || 'Le workflow'}\u00a0» a écrit ${plural(f.limit, 'fois', 'fois')} à ${f.counterpart || 'un même destinataire'} en une heure\u00a0; il est en pause.`,
  },
  held: (count: number) => `${plural(count, 'message retenu', 'messages retenus')}`,
  since: (when: string) => `depuis le ${when}`,
  release: 'Lever',
  releasing: 'Levée…',
  releaseLabel: (reason: string) => `Lever la retenue\u00a0: ${reason}`,
  released: 'Retenue levée\u00a0: les messages retenus partent.',
  loadFailed: 'Impossible de charger les retenues d’envoi.',
  notification: {
    title: (reason: string, where: string) => {
      const known: Record<string, string> = {
        mailbox_hourly_cap: `Envois de ${where} retenus\u00a0: limite horaire atteinte`,
        workflow_hourly_cap: `Envois de «\u00a0${where}\u00a0» retenus\u00a0: limite horaire atteinte`,
        auto_reply_loop: `Envois de «\u00a0${where}\u00a0» retenus\u00a0: il répondait sans cesse à des réponses automatiques`,
        repeat_recipient: `Envois de «\u00a0${where}\u00a0» retenus\u00a0: le même destinataire encore et encore`,
      };
      return known[reason] ?? `Envois de ${where} retenus`;
    },
    body: (heldCount: number, paused: boolean) =>
      `${plural(heldCount, 'message est retenu', 'messages sont retenus')}, rien n’a été envoyé ni perdu.${paused ? ' Le workflow est en pause.' : ''} Vérifiez puis levez la retenue pour les envoyer.`,
  },
};

export const frSendGuardErrors: typeof enSendGuardErrors = {
  'send_hold.not_found': 'Cette retenue d’envoi n’existe plus.',
};
