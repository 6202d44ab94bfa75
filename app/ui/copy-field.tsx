'use client';

/**
 * A read-only value with a copy button (secrets and links shown once). Falls back to a selection
 * copy where the Clipboard API is missing (plain-HTTP self-hosted instances).
 */
import { useEffect, useRef, useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { Button } from './button';
import { CheckIcon, CopyIcon } from './icons';

async function copyText(text: string, source: HTMLElement | null): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the selection copy
  }
  if (!source) return false;
  const range = document.createRange();
  range.selectNodeContents(source);
  const selection = window.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  }
}

export function CopyField({ value, label, testId }: { value: string; label: string; testId: string }) {
  const { t } = useI18n();
  const valueRef = useRef<HTMLElement>(null);
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');

  useEffect(() => {
    if (state !== 'copied') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);

  return (
    <div className="space-y-1.5">
      <p className="text-sm font-medium">{label}</p>
      <div className="flex items-stretch gap-2">
        <code
          ref={valueRef}
          data-testid={testId}
          className="min-w-0 flex-1 rounded-md border border-line-strong bg-subtle px-3 py-2 font-mono text-[13px] leading-5 break-all select-all"
        >
          {value}
        </code>
        <Button onClick={async () => setState((await copyText(value, valueRef.current)) ? 'copied' : 'failed')} className="h-auto min-h-9">
          {state === 'copied' ? <CheckIcon className="text-emerald-600" /> : <CopyIcon />}
          {state === 'copied' ? t.common.copied : t.common.copy}
        </Button>
      </div>
      <p role="status" className="min-h-4 text-xs text-muted">
        {state === 'failed' ? t.common.copyFailed : ''}
      </p>
    </div>
  );
}
