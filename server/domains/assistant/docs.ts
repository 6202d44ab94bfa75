/**
 * The en/fr prose (summary and description) of assistantRouter's routes, one entry per procedure:
 * it lives here so that router.ts reads as wiring (procedure → service).
 */
import { withGraphScopeRule } from '../workflows';

export const docs = {
  list: {
    summary: { en: 'List assistant conversations', fr: 'Lister les conversations avec l’assistant' },
    description: {
      en: 'Your conversations, most recently updated first. `workflowId`: only those attached to this workflow. `limit` 1-100 (default 50); no cursor. Invalid query: 400 `assistant.bad_request`.',
      fr: 'Vos conversations, les plus récemment mises à jour d’abord. `workflowId` : seulement celles rattachées à ce workflow. `limit` 1-100 (50 par défaut) ; sans curseur. Requête invalide : 400 `assistant.bad_request`.',
    },
  },
  create: {
    summary: { en: 'Open an assistant conversation', fr: 'Ouvrir une conversation avec l’assistant' },
    description: {
      en: 'Body (all optional): `workflowId` (one of your workflows; else 400 `assistant.bad_request`), `title` (1-120), `model` {provider, model 1-200, connectionId?}. A model the connection does not enable (or an unknown connection): 400 `assistant.model_not_allowed`. A workflow-attached conversation needs a model with tools: 400 `assistant.tools_not_supported`. Without `model`, each turn uses the `assistant` purpose’s routing.',
      fr: 'Corps (tout est facultatif) : `workflowId` (un de vos workflows ; sinon 400 `assistant.bad_request`), `title` (1-120), `model` {provider, model 1-200, connectionId?}. Un modèle que la connexion n’autorise pas (ou une connexion inconnue) : 400 `assistant.model_not_allowed`. Une conversation rattachée à un workflow exige un modèle avec outils : 400 `assistant.tools_not_supported`. Sans `model`, chaque tour suit le routage de l’usage `assistant`.',
    },
  },
  get: {
    summary: { en: 'Read an assistant conversation', fr: 'Lire une conversation avec l’assistant' },
    description: {
      en: 'The conversation with its messages (oldest first; an assistant message is written while it streams, `status: streaming`) and its proposals. Everything a streamed turn produced is here, so a cut connection catches up. Another member’s conversation: 404 `assistant.not_found`.',
      fr: 'La conversation avec ses messages (les plus anciens d’abord ; un message de l’assistant est écrit pendant qu’il arrive, `status: streaming`) et ses propositions. Tout ce qu’un tour a produit y est, si bien qu’une connexion coupée rattrape son retard. La conversation d’un autre membre : 404 `assistant.not_found`.',
    },
  },
  turn: {
    summary: { en: 'Send a turn to the assistant', fr: 'Envoyer un tour à l’assistant' },
    description: {
      en: '`content` (1-20,000 characters). 202 `{messageId}`: the turn runs on the server whether or not the browser stays; its text streams to your browsers as `assistant.delta` events (`offset`, `delta`) and is written to the message as it comes. A turn already running: 409 `assistant.turn_running`; no provider: 409 `assistant.no_provider`; a spent budget: 402 `llm.budget_exceeded`.',
      fr: '`content` (1-20 000 caractères). 202 `{messageId}` : le tour tourne sur le serveur, que le navigateur reste ou non ; son texte arrive dans vos navigateurs en événements `assistant.delta` (`offset`, `delta`) et s’écrit dans le message au fil de l’eau. Un tour déjà en cours : 409 `assistant.turn_running` ; aucun fournisseur : 409 `assistant.no_provider` ; un budget épuisé : 402 `llm.budget_exceeded`.',
    },
  },
  cancel: {
    summary: { en: 'Stop the running turn', fr: 'Arrêter le tour en cours' },
    description: {
      en: 'Stops the running turn: the conversation and its message become `cancelled`, the text written so far stays. Without a running turn the conversation is answered unchanged.',
      fr: 'Arrête le tour en cours : la conversation et son message passent à `cancelled`, le texte déjà écrit reste. Sans tour en cours, la conversation est rendue inchangée.',
    },
  },
  accept: {
    summary: { en: 'Accept a proposal', fr: 'Accepter une proposition' },
    description: withGraphScopeRule({
      en: 'Writes the proposed graph as the workflow’s draft (never the published version), over the draft revision the assistant read. A draft changed since: 409 `workflow.revision_conflict` and the proposal becomes `stale`. A decided proposal: 409 `assistant.proposal_decided`.',
      fr: 'Écrit le graphe proposé comme brouillon du workflow (jamais la version publiée), sur la révision du brouillon que l’assistant a lue. Un brouillon modifié depuis : 409 `workflow.revision_conflict` et la proposition passe à `stale`. Une proposition déjà tranchée : 409 `assistant.proposal_decided`.',
    }, { en: 'Through a key, accepting also needs `workflows:write` (`details.reasons`: `draft_write`).', fr: 'Avec une clé, accepter exige aussi `workflows:write` (`details.reasons` : `draft_write`).' }),
  },
  reject: {
    summary: { en: 'Reject a proposal', fr: 'Refuser une proposition' },
    description: {
      en: 'The proposal becomes `rejected`; the workflow is unchanged. A decided proposal: 409 `assistant.proposal_decided`.',
      fr: 'La proposition passe à `rejected` ; le workflow ne change pas. Une proposition déjà tranchée : 409 `assistant.proposal_decided`.',
    },
  },
};
