/** A value as indented JSON in a scrolling block. */
import { cn } from '@/app/ui/cn';

export function JsonBlock({ value, className, testId }: { value: unknown; className?: string; testId?: string }) {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2) ?? 'null';
  } catch {
    text = String(value);
  }
  return (
    <pre data-testid={testId} className={cn('max-h-80 overflow-auto rounded-md border border-line bg-subtle/60 p-3 font-mono text-[12px] leading-4 whitespace-pre-wrap break-words', className)}>
      {text}
    </pre>
  );
}
