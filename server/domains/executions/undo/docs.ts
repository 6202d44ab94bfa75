/**
 * The en/fr prose of the undo routes (issue 24 §4), one entry per procedure, so that the router reads
 * as wiring.
 */

const rulesEn =
  'Only a finished live run that started on its own (a trigger, a replay) can be undone: its own effect records and those of the runs it called (loop iterations, sub-workflow runs), newest first. A message change is undone only if the message is still as the run left it (its folder, and the read mark, flag or labels the run set); otherwise it is skipped with its `reason`. A draft or a send still waiting for review is discarded (rejected: out of review, its copy removed from the Drafts folder); a sent message cannot be undone and is listed in `sent`. Refused with 409 `execution.not_undoable` and `details.reason`: `not_finished`, `test_run`, `called_run` (undo `details.parentExecutionId` instead), `too_many_effects` (over 1,000 records). Another member’s run is 404 `execution.not_found`.';

const rulesFr =
  'Seule une exécution réelle terminée, démarrée d’elle-même (un déclencheur, un rejeu), peut être défaite : ses propres enregistrements d’effets et ceux des exécutions qu’elle a appelées (itérations de boucle, sous-workflows), des plus récents aux plus anciens. Un changement de message n’est défait que si le message est encore tel que l’exécution l’a laissé (son dossier, et la marque de lecture, le drapeau ou les étiquettes qu’elle a posés) ; sinon il est sauté avec sa raison (`reason`). Un brouillon ou un envoi encore en attente de relecture est écarté (rejeté : hors de la relecture, sa copie retirée du dossier Brouillons) ; un message envoyé ne peut pas être défait et figure dans `sent`. Refusé en 409 `execution.not_undoable` avec `details.reason` : `not_finished`, `test_run`, `called_run` (défaire plutôt `details.parentExecutionId`), `too_many_effects` (plus de 1 000 enregistrements). L’exécution d’un autre membre donne 404 `execution.not_found`.';

export const undoDocs = {
  preview: {
    summary: { en: 'Preview undoing a run’s mailbox changes', fr: 'Prévisualiser l’annulation des changements d’une exécution' },
    description: {
      en: `What undoing the run would do now, changing nothing: \`items\` (each effect record with the \`subject\` of the message or draft it is about, its inverse \`action\` and \`status\` \`will_undo\` or \`skip\` with its \`reason\`), \`sent\`, \`others\` (effects that are not mailbox changes: never undone), \`counts\`, and \`undoneAt\` when the run was undone already. ${rulesEn} An API key needs \`messages:read\` besides \`executions:read\`.`,
      fr: `Ce que l’annulation ferait maintenant, sans rien changer : \`items\` (chaque enregistrement d’effet avec l’objet \`subject\` du message ou du brouillon concerné, son action inverse \`action\` et \`status\` \`will_undo\` ou \`skip\` avec sa raison \`reason\`), \`sent\`, \`others\` (effets qui ne sont pas des changements de boîte : jamais défaits), \`counts\`, et \`undoneAt\` si l’exécution a déjà été défaite. ${rulesFr} Une clé d’API a besoin de \`messages:read\` en plus de \`executions:read\`.`,
    },
  },
  undo: {
    summary: { en: 'Undo a run’s mailbox changes', fr: 'Annuler les changements d’une exécution dans la boîte' },
    description: {
      en: `Undoes the run's mailbox changes through the webmail's own actions (the mirror at once, the mailbox by the runner), and answers each item (\`undone\`, \`skipped\` with its reason, \`failed\` with the mailbox's refusal), \`sent\` and \`counts\`; audited (\`execution.undone\`). Once per run: a second call undoes nothing and answers the first result with \`replayed: true\`; a call while another is undoing the run is 409 \`execution.undo_in_progress\`. ${rulesEn} An API key needs \`messages:write\`, and \`review:write\` when a draft is discarded, besides \`executions:write\`.`,
      fr: `Défait les changements de l’exécution dans la boîte par les actions mêmes du webmail (la copie locale aussitôt, la boîte par le runner), et répond pour chaque élément (\`undone\`, \`skipped\` avec sa raison, \`failed\` avec le refus de la boîte), \`sent\` et \`counts\` ; journalisé (\`execution.undone\`). Une fois par exécution : un second appel ne défait rien et répond le premier résultat avec \`replayed: true\` ; un appel pendant qu’un autre défait l’exécution donne 409 \`execution.undo_in_progress\`. ${rulesFr} Une clé d’API a besoin de \`messages:write\`, et de \`review:write\` quand un brouillon est écarté, en plus de \`executions:write\`.`,
    },
  },
  bulk: {
    summary: { en: 'Undo a workflow’s runs in a time window', fr: 'Annuler les exécutions d’un workflow sur une période' },
    description: {
      en: 'After a bad rule went live: undoes, newest first, up to `limit` (1-100, default 20) finished live runs of the workflow created in `[from, to)` (`to` defaults to now; the window spans 30 days at most, else 400 `request.bad_request`) that acted and are not undone yet, each as the single undo does. Answers `count`, `hasMore` (call again), each run’s `createdAt`, `subject` (of the email that started it), `outcome` (`undone`, `already_undone`, `preview`, `refused` with its `error`) and `counts`, and the `totals`. `dryRun: true` previews each run instead. A refused run does not stop the others. Another member’s workflow is 404 `workflow.not_found`. An API key needs `messages:write` (`messages:read` for a dry run), and `review:write` when a draft is discarded, besides `executions:write`.',
      fr: 'Après une règle fautive : défait, des plus récentes aux plus anciennes, jusqu’à `limit` (1-100, 20 par défaut) exécutions réelles terminées du workflow créées dans `[from, to)` (`to` vaut maintenant par défaut ; la fenêtre couvre 30 jours au plus, sinon 400 `request.bad_request`) qui ont agi et ne sont pas encore défaites, chacune comme l’annulation unitaire. Répond `count`, `hasMore` (rappeler), pour chaque exécution sa date `createdAt`, l’objet `subject` de l’email qui l’a lancée, son `outcome` (`undone`, `already_undone`, `preview`, `refused` avec son `error`) et ses `counts`, et les `totals`. `dryRun: true` prévisualise chaque exécution à la place. Une exécution refusée n’arrête pas les autres. Le workflow d’un autre membre donne 404 `workflow.not_found`. Une clé d’API a besoin de `messages:write` (`messages:read` pour une simulation), et de `review:write` quand un brouillon est écarté, en plus de `executions:write`.',
    },
  },
};
