import { uuidParam } from '../../core/http/schemas';
import { route } from '../../trpc/meta';
import { actorOf, procedure, router } from '../../trpc/procedures';
import { journalPageOutput, listJournalInput, messageJournalOutput } from './schemas';
import { listJournal, messageJournal } from './service';

const tag = 'Journal';
const read = { kind: 'scope', scope: 'messages:read' } as const;

export const journalRouter = router({
  message: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/messages/{id}/journal',
        access: read,
        errors: ['request.not_found'],
        tag,
        summary: { en: 'Why a message did or did not start runs', fr: 'Pourquoi un message a démarré ou non des exécutions' },
        description: {
          en: 'The message’s journal entry (`entry`: `outcome` `excluded_org`, `excluded_member`, `guardrail`, `unmatched` or `dispatched`, and `ruleRef` naming the exclusion or guardrail that decided: `guardrail:from_self` (the loop guard, absolute), `guardrail:delivery_report` (a bounce or read receipt), `guardrail:auto_reply` (an out-of-office or other automatic mail), `guardrail:no_reply`, `guardrail:mailing_list`, `guardrail:bulk` (a newsletter or other mass mail); the guardrail that kept the message from your oldest live mail trigger; a trigger that includes automatic mail, no-reply senders or list mail lets those through, and a message such a trigger let through but whose filters did not match is `unmatched`), or null when the message was never dispatched (first sync, backfill, resync), and the runs started for it, newest first (at most 50; `workflowName` empty when the workflow was deleted), and `workflows`: each of your published mail workflows (at most 100, oldest first) with its `verdict` on the message (`started`, or why not: `paused`, `excluded`, `guardrail`, `filtered`, `other_mailbox`, `would_start` when it matches now but was not started, `invalid_trigger`), worked out now by the same rules as dispatch, with `ruleRef` and `param`, the trigger parameter that decided (the filter that did not match, or the option that lets that kind of mail in). A message outside your mailboxes is 404 `request.not_found`.',
          fr: 'L’entrée de journal du message (`entry` : `outcome` `excluded_org`, `excluded_member`, `guardrail`, `unmatched` ou `dispatched`, et `ruleRef` qui nomme l’exclusion ou le garde-fou qui a décidé : `guardrail:from_self` (la protection contre les boucles, absolue), `guardrail:delivery_report` (un avis de non-remise ou un accusé de lecture), `guardrail:auto_reply` (une réponse d’absence ou un autre courrier automatique), `guardrail:no_reply`, `guardrail:mailing_list`, `guardrail:bulk` (une lettre d’information ou un autre envoi en masse) ; le garde-fou qui a écarté le message de votre plus ancien déclencheur de courrier actif ; un déclencheur qui inclut le courrier automatique, les expéditeurs « no-reply » ou le courrier de liste les laisse passer, et un message qu’un tel déclencheur a laissé passer mais dont les filtres ne correspondaient pas est `unmatched`), ou null quand le message n’a jamais été distribué (première synchronisation, rattrapage, resynchronisation), et les exécutions démarrées pour lui, des plus récentes aux plus anciennes (50 au plus ; `workflowName` vide quand le workflow a été supprimé), et `workflows` : chacun de vos workflows de courrier publiés (100 au plus, des plus anciens aux plus récents) avec son `verdict` sur le message (`started`, ou pourquoi pas : `paused`, `excluded`, `guardrail`, `filtered`, `other_mailbox`, `would_start` quand il correspond maintenant sans avoir été démarré, `invalid_trigger`), établi maintenant selon les mêmes règles que la distribution, avec `ruleRef` et `param`, le paramètre du déclencheur qui a décidé (le filtre qui ne correspondait pas, ou l’option qui laisse entrer ce genre de courrier). Un message hors de vos boîtes donne 404 `request.not_found`.',
        },
      }),
    )
    .input(uuidParam)
    .output(messageJournalOutput)
    .query(({ ctx, input }) => messageJournal(actorOf(ctx), input.id)),

  list: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/journal',
        access: read,
        tag,
        summary: { en: 'List the messages journal', fr: 'Lister le journal des messages' },
        description: {
          en: 'Journal entries of your new mail, newest first: one per message, with its outcome, the rule that decided, and the message’s subject and sender (null once the message left the mirror). Filters `mailboxId` (one of yours, else 400), `outcome`, and the time window `from` (inclusive) and `to` (exclusive) on the entry’s creation, either or both: the dashboard’s mail figures count entries by the same rule, so a window and an outcome from the dashboard list exactly the entries it counted (`from` ≥ `to` is a 400). Cursor pagination (`limit` 1-200, default 50; above 200 is a 400); an unreadable cursor gives the first page.',
          fr: 'Les entrées de journal de votre nouveau courrier, des plus récentes aux plus anciennes : une par message, avec son résultat, la règle qui a décidé, et l’objet et l’expéditeur du message (null une fois le message sorti du miroir). Filtres `mailboxId` (une de vos boîtes, sinon 400), `outcome`, et la fenêtre de temps `from` (incluse) et `to` (exclue) sur la création de l’entrée, l’une, l’autre ou les deux : les chiffres du courrier du tableau de bord comptent les entrées selon la même règle, si bien qu’une fenêtre et un résultat venus du tableau de bord listent exactement les entrées qu’il a comptées (`from` ≥ `to` donne 400). Pagination par curseur (`limit` 1-200, 50 par défaut ; au-delà de 200, 400) ; un curseur illisible donne la première page.',
        },
      }),
    )
    .input(listJournalInput)
    .output(journalPageOutput)
    .query(({ ctx, input }) => listJournal(actorOf(ctx), input)),
});
