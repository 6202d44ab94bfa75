'use client';

/**
 * The body of one message: `bodyHtmlSafe` (or the plain text) in a sandboxed frame with its own strict
 * policy, remote images blocked until the reader allows them for this message or for the sender
 * (remembered in this browser), then the attachments with their download links. Above it, the label an
 * ai.classify step gave the message, when one did.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { formatBytes } from '@/app/lib/format';
import type { Attachment, FullMessage, MailPrefill, MessageSummary } from '@/app/lib/mail-types';
import { Badge } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { DownloadIcon, ImageIcon, PaperclipIcon } from '@/app/ui/icons';
import { Spinner } from '@/app/ui/spinner';
import { ErrorState } from '@/app/ui/states';
import { aiClassificationOf, confidencePercent } from './_lib/classification';
import { fetchAsDataUrl, inlineCandidates, withInlineImages } from './_lib/inline-images';
import { isTrustedImageSender, trustImageSender } from './_lib/remote-images';
import { buildSrcdoc, fitFrameHeight, frameSandbox, textToHtml } from './_lib/srcdoc';
import { UnsubscribeButton } from './unsubscribe-button';
import { previewKindOf, previewUrl } from './_lib/previews';
import { useMessage } from './_lib/api';

export function MessageFrame({ html, allowRemoteImages, title }: { html: string; allowRemoteImages: boolean; title: string }) {
  const srcDoc = useMemo(() => buildSrcdoc(html, { allowRemoteImages }), [html, allowRemoteImages]);
  const frameRef = useRef<HTMLIFrameElement>(null);
  // The frame takes its document's height (a short mail leaves its attachments and Reply in view): measured
  // on load (images included) and again when the width changes the layout. See frameSandbox for why the
  // application may read the frame while the frame can do nothing.
  useEffect(() => {
    const frame = frameRef.current;
    if (!frame || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => fitFrameHeight(frame));
    observer.observe(frame.parentElement ?? frame);
    return () => observer.disconnect();
  }, []);
  return (
    <div className="overflow-hidden rounded-lg border border-line bg-white">
      <iframe
        ref={frameRef}
        sandbox={frameSandbox}
        srcDoc={srcDoc}
        title={title}
        referrerPolicy="no-referrer"
        data-testid="message-frame"
        onLoad={(event) => fitFrameHeight(event.currentTarget)}
        className="block h-48 w-full border-0"
      />
    </div>
  );
}

/** A previewed attachment: an image as `<img>`, a PDF in a frame (see ./_lib/previews.ts for why each is safe). */
function AttachmentPreview({ attachment }: { attachment: Attachment }) {
  const { t } = useI18n();
  const kind = previewKindOf(attachment.mime);
  const name = attachment.filename || t.webmail.unnamedAttachment;
  if (kind === 'image') {
    return (
      // eslint-disable-next-line @next/next/no-img-element -- bytes from our own route, not an optimisable asset
      <img src={previewUrl(attachment.downloadUrl)} alt={name} referrerPolicy="no-referrer" className="max-h-[60vh] max-w-full rounded-md border border-line bg-white" data-testid="attachment-preview" />
    );
  }
  if (kind === 'pdf') {
    return <iframe src={previewUrl(attachment.downloadUrl)} title={t.webmail.previewOf(name)} referrerPolicy="no-referrer" className="h-[70vh] w-full rounded-md border border-line bg-white" data-testid="attachment-preview" />;
  }
  return null;
}

function Attachments({ attachments }: { attachments: Attachment[] }) {
  const { t, locale } = useI18n();
  const [previewed, setPreviewed] = useState<string | null>(null);
  if (attachments.length === 0) return null;
  const shown = attachments.find((attachment) => attachment.id === previewed);
  return (
    <div className="mt-3">
      <h4 className="mb-2 flex items-center gap-1.5 text-xs font-medium text-muted">
        <PaperclipIcon size={13} />
        {t.webmail.attachments(attachments.length)}
      </h4>
      <ul className="flex flex-wrap gap-2" data-testid="attachments">
        {attachments.map((attachment) => (
          <li key={attachment.id} className="flex items-center gap-1">
            <a
              href={attachment.downloadUrl}
              download={attachment.filename}
              rel="noopener"
              className="flex max-w-72 items-center gap-2 rounded-md border border-line-strong bg-surface px-2.5 py-1.5 text-sm shadow-xs hover:bg-subtle"
              aria-label={t.webmail.download(attachment.filename)}
            >
              <DownloadIcon className="shrink-0 text-muted" />
              <span className="min-w-0 truncate">{attachment.filename || t.webmail.unnamedAttachment}</span>
              <span className="shrink-0 text-xs text-muted">{formatBytes(attachment.size, locale)}</span>
            </a>
            {previewKindOf(attachment.mime) ? (
              <Button
                size="sm"
                variant="ghost"
                aria-pressed={previewed === attachment.id}
                onClick={() => setPreviewed((current) => (current === attachment.id ? null : attachment.id))}
                data-testid="attachment-preview-toggle"
              >
                {previewed === attachment.id ? t.webmail.hidePreview : t.webmail.preview}
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
      {shown ? (
        <div className="mt-2">
          <AttachmentPreview attachment={shown} />
        </div>
      ) : null}
    </div>
  );
}

/** The body's inline images as `data:` URLs (see ./_lib/inline-images.ts); the body shows at once without them. */
function useInlineImages(message: FullMessage | undefined): ReadonlyMap<string, string> | undefined {
  const candidates = useMemo(() => (message?.bodyHtmlSafe ? inlineCandidates(message.bodyHtmlSafe, message.attachments) : []), [message]);
  const query = useQuery({
    queryKey: ['webmail', 'inline-images', message?.id, candidates.map((candidate) => candidate.downloadUrl)],
    enabled: candidates.length > 0,
    staleTime: Infinity,
    gcTime: 5 * 60_000,
    queryFn: async ({ signal }) => {
      const entries = await Promise.all(candidates.map(async (candidate) => [candidate.downloadUrl, await fetchAsDataUrl(candidate, signal).catch(() => null)] as const));
      return new Map(entries.filter((entry): entry is readonly [string, string] => entry[1] !== null));
    },
  });
  return query.data;
}

export function MessageBody({ summary, onWrite }: { summary: MessageSummary; /** Opens a new message (a list's unsubscribe mail). */ onWrite?: (prefill: MailPrefill) => void }) {
  const { t } = useI18n();
  const sender = summary.from?.email ?? null;
  const [allowedHere, setAllowedHere] = useState(false);
  const allowRemoteImages = allowedHere || isTrustedImageSender(sender);
  const message = useMessage(summary.id, { enabled: true, allowRemoteImages });
  // While the permissive read loads, keep showing the blocked one (same message, no flash).
  const blocked = useMessage(summary.id, { enabled: allowRemoteImages && !message.data, allowRemoteImages: false });
  const data = message.data ?? blocked.data;
  const inlineImages = useInlineImages(data);

  if (!data) {
    if (message.isError) return <ErrorState error={message.error} onRetry={() => message.refetch()} testId="message-error" />;
    return (
      <p role="status" className="flex items-center gap-2 py-6 text-sm text-muted" data-testid="message-loading">
        <Spinner />
        {t.webmail.loadingBody}
      </p>
    );
  }

  const html = data.bodyHtmlSafe
    ? inlineImages
      ? withInlineImages(data.bodyHtmlSafe, inlineImages)
      : data.bodyHtmlSafe
    : data.bodyText
      ? textToHtml(data.bodyText)
      : null;
  const people = (list: { name?: string | null; email: string }[]) => list.map((person) => person.name?.trim() || person.email).join(', ');
  const { to, cc } = data.headersSubset;
  const classified = aiClassificationOf(data.classification);
  return (
    <div>
      {classified ? (
        <p className="mb-2 flex flex-wrap items-center gap-1.5 text-xs text-muted" data-testid="message-classification">
          <Badge tone="brand">{t.webmail.aiClassification(classified.label)}</Badge>
          {classified.confidence !== null ? <span>{t.webmail.aiConfidence(confidencePercent(classified.confidence))}</span> : null}
        </p>
      ) : null}
      {to.length > 0 || cc.length > 0 || data.listUnsubscribe ? (
        <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
          <p className="text-xs text-muted" data-testid="message-recipients">
            {to.length > 0 ? t.webmail.to(people(to)) : null}
            {to.length > 0 && cc.length > 0 ? ' · ' : null}
            {cc.length > 0 ? t.webmail.cc(people(cc)) : null}
          </p>
          <UnsubscribeButton message={data} onWrite={onWrite} />
        </div>
      ) : null}
      {data.hasRemoteImages && !allowRemoteImages ? (
        <div role="status" data-testid="remote-images-banner" className="mb-2 flex items-start gap-2 rounded-md bg-subtle px-3 py-2 text-sm">
          <ImageIcon className="mt-0.5 shrink-0 text-muted" />
          <div className="min-w-0 flex-1">
            <p>{t.webmail.remoteImages.blocked}</p>
            <div className="mt-1 -ml-2.5 flex flex-wrap gap-1">
              <Button size="sm" variant="ghost" onClick={() => setAllowedHere(true)}>
                {t.webmail.remoteImages.showOnce}
              </Button>
              {sender ? (
                <Button
                  size="sm"
                  variant="ghost"
                  className="max-w-full"
                  onClick={() => {
                    trustImageSender(sender);
                    setAllowedHere(true);
                  }}
                >
                  <span className="truncate">{t.webmail.remoteImages.alwaysFrom(sender)}</span>
                </Button>
              ) : null}
            </div>
          </div>
        </div>
      ) : null}
      {html ? (
        <MessageFrame html={html} allowRemoteImages={allowRemoteImages && Boolean(message.data)} title={t.webmail.frameTitle(summary.subject || t.webmail.noSubject)} />
      ) : (
        <p className="py-4 text-sm text-muted">{data.bodyComplete ? t.webmail.noBody : t.webmail.bodyUnavailable}</p>
      )}
      <Attachments attachments={data.attachments} />
    </div>
  );
}
