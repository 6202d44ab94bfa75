'use client';

/** Exporting an address book: which cards (mine, mine for a mailbox, the organisation's) and which format, then a download. */
import { useId, useState } from 'react';
import { buttonClasses } from '@/app/ui/button';
import { Button } from '@/app/ui/button';
import { Dialog, DialogBody, DialogClose, DialogContent, DialogFooter } from '@/app/ui/dialog';
import { DownloadIcon } from '@/app/ui/icons';
import { exportHref, type ImportFormat, type Target } from './api';
import { TargetSelect } from './target-select';
import { useImportExportTexts } from './texts';

function ExportForm() {
  const texts = useImportExportTexts();
  const formatName = useId();
  const [target, setTarget] = useState<Target>({ layer: 'member' });
  const [format, setFormat] = useState<ImportFormat>('vcard');
  const href = exportHref(format, target);
  return (
    <>
      <DialogBody className="space-y-4">
        <TargetSelect target={target} onChange={setTarget} canWriteShared={false} sharedReadable texts={texts} testId="export-target" />
        <fieldset className="space-y-1.5">
          <legend className="text-sm font-medium">{texts.format}</legend>
          {(['vcard', 'csv'] as const).map((value) => (
            <label key={value} className="flex items-center gap-2 text-sm">
              <input type="radio" name={formatName} value={value} checked={format === value} onChange={() => setFormat(value)} data-testid={`export-format-${value}`} />
              {texts.formats[value]}
            </label>
          ))}
        </fieldset>
        {format === 'csv' ? <p className="text-xs text-muted">{texts.export.csvSafety}</p> : null}
      </DialogBody>
      <DialogFooter>
        <DialogClose asChild>
          <Button>{texts.close}</Button>
        </DialogClose>
        <a href={href} download className={buttonClasses('primary')} data-testid="export-download">
          <DownloadIcon size={16} />
          {texts.export.download}
        </a>
      </DialogFooter>
    </>
  );
}

export function ContactsExportDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const texts = useImportExportTexts();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={texts.export.title} description={texts.export.description}>
        {open ? <ExportForm /> : null}
      </DialogContent>
    </Dialog>
  );
}
