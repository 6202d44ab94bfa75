/** GET /api/v1/messages and GET /api/v1/messages/{id} (downloads and uploads are plain routes). */
import { route } from '../../../trpc/meta';
import { actorOf, procedure, router } from '../../../trpc/procedures';
import { qGrammar } from '../schemas';
import { getMessageInput, listMessagesInput, listMessagesOutput, messageSchema } from './schemas';
import { getMessage, listMessages } from './service';

const tag = 'Mail';
const read = { kind: 'scope', scope: 'messages:read' } as const;

export const messagesRouter = router({
  list: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/messages',
        access: read,
        tag,
        summary: { en: 'List messages', fr: 'Lister les messages' },
        description: {
          en: `Message summaries of your mailboxes (or of \`mailboxId\`), every folder, most recent first. Cursor pagination: \`limit\` 1-200 (default 50; above is 400), \`cursor\` the previous page’s \`nextCursor\` (null at the end; stable when mail arrives; an unreadable cursor gives the first page). \`signals\` says what kind of mail each is: \`isAutoReply\` (automatic mail by RFC 3834, out-of-office replies), \`isNoReply\`, \`isMailingList\`, \`isFromSelf\`, and, added to the spec’s four, \`isBulk\` (newsletters and other mass mail), \`isDeliveryReport\` (bounces, read receipts) and \`isCalendar\` (invitations); \`Precedence: bulk\` makes bulk mail, not an auto-reply. \`q\`: ${qGrammar}`,
          fr: `Les résumés des messages de vos boîtes (ou de \`mailboxId\`), tous dossiers, du plus récent au plus ancien. Pagination par curseur : \`limit\` 1-200 (50 par défaut ; au-delà, 400), \`cursor\` le \`nextCursor\` de la page précédente (null à la fin ; stable quand du courrier arrive ; un curseur illisible donne la première page). \`signals\` dit de quel genre de courrier il s’agit : \`isAutoReply\` (courrier automatique au sens de la RFC 3834, réponses d’absence), \`isNoReply\`, \`isMailingList\`, \`isFromSelf\` et, en plus des quatre de la spécification, \`isBulk\` (lettres d’information et autres envois en masse), \`isDeliveryReport\` (avis de non-remise, accusés de lecture) et \`isCalendar\` (invitations) ; \`Precedence: bulk\` désigne un envoi en masse, pas une réponse automatique. \`q\` : les mots sont cherchés comme débuts de mots dans le sujet, l’aperçu et l’expéditeur (nom ou adresse), tous à la fois ; \`"une phrase"\` cherche ces caractères dans cet ordre ; \`from:mot\` (ou \`from:"Un Nom"\`) ne regarde que l’expéditeur ; \`-terme\` exclut. Sans casse ; 200 caractères et 10 termes au plus.`,
        },
      }),
    )
    .input(listMessagesInput)
    .output(listMessagesOutput)
    .query(({ ctx, input }) => listMessages(actorOf(ctx), input)),

  get: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/messages/{id}',
        access: read,
        tag,
        summary: { en: 'Read a message', fr: 'Lire un message' },
        description: {
          en: 'The full message: summary fields plus `threadId`, `classification`, `bodyText`, `bodyHtmlSafe` (sanitised on every read, never stored: scripts, event handlers, forms, frames and active URLs removed, remote images blocked unless `allowRemoteImages=true`, `cid:` images pointed at their download paths; a whole document for a sandboxed frame), `hasRemoteImages`, `bodyComplete`, `headersSubset` and `attachments` with their `downloadUrl` (a path relative to the service). A body not mirrored yet is fetched from the server first; when the server cannot be reached, the answer is what the mirror has, with `bodyComplete: false`. A message outside your mailboxes is 404 `request.not_found`.',
          fr: 'Le message complet : les champs du résumé plus `threadId`, `classification`, `bodyText`, `bodyHtmlSafe` (assaini à chaque lecture, jamais enregistré : scripts, gestionnaires d’événements, formulaires, cadres et URL actives retirés, images distantes bloquées sauf avec `allowRemoteImages=true`, images `cid:` dirigées vers leur chemin de téléchargement ; un document entier pour un cadre isolé), `hasRemoteImages`, `bodyComplete`, `headersSubset` et `attachments` avec leur `downloadUrl` (un chemin relatif au service). Un corps pas encore dans le miroir est d’abord récupéré sur le serveur ; si le serveur est injoignable, la réponse donne ce que le miroir contient, avec `bodyComplete: false`. Un message hors de vos boîtes donne 404 `request.not_found`.',
        },
      }),
    )
    .input(getMessageInput)
    .output(messageSchema)
    .query(({ ctx, input }) => getMessage(actorOf(ctx), input)),
});
