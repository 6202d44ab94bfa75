/**
 * Attachment content as plain routes (not JSON procedures): the download of a mirrored message's
 * attachment (raw bytes) and the multipart upload of a file for a later draft or send.
 */
import { z } from 'zod';
import { appError } from '../core/errors/app-error';
import { contentDisposition, downloadMediaType, previewHeaders, previewMediaType, downloadAttachment, maxUploadBodyBytes, maxUploadBytes, uploadAttachment } from '../domains/mail';
import { boundedBodyStream } from './body';
import { plainRoute } from './plain/plain-route';
import { jsonAnswer } from './json-answer';

export const attachmentDownloadRoute = plainRoute({
  method: 'GET',
  path: '/api/v1/messages/{id}/attachments/{position}',
  access: { kind: 'scope', scope: 'messages:read' },
  params: z.object({ id: z.uuid(), position: z.coerce.number().int().min(0).max(1_000_000).describe('The attachment’s MIME position (`position` in the message’s `attachments`).') }),
  query: z.object({
    preview: z
      .stringbool()
      .optional()
      .describe('`true`: a raster image or a PDF is served inline with its own type, for a preview (anything else is still a download).'),
  }),
  success: {
    status: 200,
    // The stored type when it is safe to serve, else application/octet-stream (see the description).
    mediaType: '*/*',
    description: { en: 'The raw bytes of the attachment.', fr: 'Les octets bruts de la pièce jointe.' },
  },
  errors: ['internal.busy'],
  tag: 'Mail',
  summary: { en: 'Download an attachment', fr: 'Télécharger une pièce jointe' },
  description: {
    en: 'The raw bytes of the attachment at `position`, as a download: `Content-Disposition: attachment` with the file name (`filename*`, UTF-8), `X-Content-Type-Options: nosniff`, `Cache-Control: no-store`. The stored media type is served for images, audio, video, plain text and office documents; active types (HTML, XHTML, SVG, XML, scripts, PDF) and malformed ones are served as `application/octet-stream`. With `preview=true`, a raster image (PNG, JPEG, GIF, WebP, AVIF, BMP) or a PDF is served `inline` with its exact type for the webmail’s preview (a PDF may then be framed by this origin only; its policy loads nothing); any other type is the same download as without it. Content not mirrored yet is fetched from the server first. A message outside your mailboxes, an unknown message or position and purged content all give the same 404 `request.not_found`.',
    fr: 'Les octets bruts de la pièce jointe à `position`, en téléchargement : `Content-Disposition: attachment` avec le nom du fichier (`filename*`, UTF-8), `X-Content-Type-Options: nosniff`, `Cache-Control: no-store`. Le type enregistré est servi pour les images, le son, la vidéo, le texte brut et les documents bureautiques ; les types actifs (HTML, XHTML, SVG, XML, scripts, PDF) et les types mal formés sont servis en `application/octet-stream`. Avec `preview=true`, une image matricielle (PNG, JPEG, GIF, WebP, AVIF, BMP) ou un PDF est servi `inline` avec son type exact pour l’aperçu de la messagerie (un PDF ne peut alors être encadré que par cette origine ; sa politique ne charge rien) ; tout autre type reste le même téléchargement que sans. Un contenu pas encore dans le miroir est d’abord récupéré sur le serveur. Un message hors de vos boîtes, un message ou une position inconnus et un contenu purgé donnent tous le même 404 `request.not_found`.',
  },
  async handle({ actor, params, query }) {
    if (actor.kind === 'anonymous') throw appError('auth.unauthenticated');
    const file = await downloadAttachment(actor, params.id, params.position);
    const preview = query.preview ? previewMediaType(file.mime) : null;
    if (preview) {
      return new Response(new Uint8Array(file.content), { headers: { ...previewHeaders(preview, file.filename), 'content-length': String(file.content.length) } });
    }
    return new Response(new Uint8Array(file.content), {
      headers: {
        'content-type': downloadMediaType(file.mime),
        'content-length': String(file.content.length),
        'content-disposition': contentDisposition(file.filename),
        'x-content-type-options': 'nosniff',
        'cache-control': 'no-store',
        'content-security-policy': "default-src 'none'; sandbox",
      },
    });
  },
});

export const uploadedAttachmentSchema = z.object({
  id: z.uuid(),
  filename: z.string(),
  mime: z.string(),
  size: z.number().int().min(0),
  expiresAt: z.iso.datetime(),
});

export const attachmentUploadRoute = plainRoute({
  method: 'POST',
  path: '/api/v1/messages/attachments',
  access: { kind: 'scope', scope: 'messages:write' },
  params: z.object({}),
  query: z.object({}),
  body: {
    mediaTypes: ['multipart/form-data'],
    streamed: true,
    description: {
      en: 'One file part (any field name), at most 25 MB.',
      fr: 'Une seule partie fichier (nom de champ libre), 25 Mo au plus.',
    },
  },
  maxBodyBytes: maxUploadBodyBytes,
  throttle: { bucket: 'uploads' },
  success: {
    status: 201,
    mediaType: 'application/json',
    schema: uploadedAttachmentSchema,
    description: { en: 'The stored upload.', fr: 'Le fichier enregistré.' },
  },
  tag: 'Mail',
  summary: { en: 'Upload an attachment', fr: 'Téléverser une pièce jointe' },
  description: {
    en: `One file per request as \`multipart/form-data\`, at most ${maxUploadBytes} bytes (above: 413 \`request.payload_too_large\`). No file, or more than one, is 400 \`request.bad_request\`. Executables and scripts are refused by their content (Windows, ELF and Mach-O programs, Java classes, WebAssembly, \`#!\` scripts, whatever the name), then by name and type (\`.exe\`, \`.bat\`, \`.js\`, \`.ps1\`, \`.sh\`, \`.jar\`, \`.msi\`, …): 400 \`request.bad_request\` with \`details.reason\` \`attachment_refused\`. Answers 201 \`{id, filename, mime, size, expiresAt}\`; the id is what a later draft or send attaches, until \`expiresAt\` (24 hours).`,
    fr: `Un fichier par requête en \`multipart/form-data\`, ${maxUploadBytes} octets au plus (au-delà : 413 \`request.payload_too_large\`). Aucun fichier, ou plus d’un, donne 400 \`request.bad_request\`. Les exécutables et les scripts sont refusés selon leur contenu (programmes Windows, ELF et Mach-O, classes Java, WebAssembly, scripts \`#!\`, quel que soit le nom), puis selon le nom et le type (\`.exe\`, \`.bat\`, \`.js\`, \`.ps1\`, \`.sh\`, \`.jar\`, \`.msi\`, …) : 400 \`request.bad_request\` avec \`details.reason\` \`attachment_refused\`. Répond 201 \`{id, filename, mime, size, expiresAt}\` ; l’id est ce qu’un brouillon ou un envoi joint ensuite, jusqu’à \`expiresAt\` (24 heures).`,
  },
  async handle({ actor, request }) {
    if (actor.kind === 'anonymous') throw appError('auth.unauthenticated');
    const uploaded = await uploadAttachment(actor, boundedBodyStream(request, maxUploadBodyBytes), request.headers.get('content-type') ?? '');
    return jsonAnswer(uploaded, 201);
  },
});
