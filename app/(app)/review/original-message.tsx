'use client';

/**
 * The message a review item answers or forwards (issue 19 §7: "Review shows the mail a draft answers
 * beside the draft"): read through the messages route, so it is sanitised on the server like any
 * message, and shown in the webmail's sandboxed frame with remote images blocked. A message the
 * mirror no longer has says so instead of failing the pane.
 */
import { useI18n } from '@/app/i18n/client';
import { errorCodeOf } from '@/app/lib/errors';
import { formatDateTime } from '@/app/lib/format';
import { Spinner } from '@/app/ui/spinner';
import { ErrorState } from '@/app/ui/states';
import { MessageFrame } from '../messages/message-body';
import { textToHtml } from '../messages/_lib/srcdoc';
import { useMessage } from '../messages/_lib/api';
import type { ReviewDetail } from './_lib/api';

type Related = NonNullable<ReviewDetail['relatedMessage']>;

export function OriginalMessage({ related }: { related: Related }) {
  const { t, locale } = useI18n();
  const texts = t.review.original;
  const message = useMessage(related.id, { enabled: true, allowRemoteImages: false });
  const heading = (
    <h3 className="mb-2 text-xs font-medium tracking-wide text-muted uppercase" id={`original-${related.id}`}>
      {texts.title[related.relation]}
    </h3>
  );

  let body: React.ReactNode;
  if (message.data) {
    const data = message.data;
    const html = data.bodyHtmlSafe ?? (data.bodyText != null ? textToHtml(data.bodyText) : null);
    const sender = data.from ? (data.from.name ? `${data.from.name} <${data.from.email}>` : data.from.email) : '';
    const subject = data.subject || t.review.noSubject;
    body = (
      <>
        <p className="mb-0.5 text-sm font-medium break-words" data-testid="review-original-subject">
          {subject}
        </p>
        <p className="mb-2 text-xs text-muted">{texts.from(sender, formatDateTime(data.receivedAt, locale))}</p>
        {html ? <MessageFrame html={html} allowRemoteImages={false} title={texts.frameTitle(subject)} /> : null}
      </>
    );
  } else if (message.isError) {
    const code = errorCodeOf(message.error);
    body =
      code === 'request.not_found' ? (
        <p className="text-sm text-muted" data-testid="review-original-gone">
          {texts.gone}
        </p>
      ) : (
        <ErrorState error={message.error} onRetry={() => message.refetch()} testId="review-original-error" />
      );
  } else {
    body = (
      <p role="status" className="flex items-center gap-2 py-6 text-sm text-muted">
        <Spinner />
        {texts.loading}
      </p>
    );
  }

  return (
    <section aria-labelledby={`original-${related.id}`} data-testid="review-original">
      {heading}
      {body}
    </section>
  );
}
