'use client';

/**
 * The address book's Import and Export, for the Contacts page's toolbar: two buttons, each opening its dialog.
 *
 *   <ContactsImportExport canWriteShared={member.role === 'admin'} />
 *
 * `canWriteShared` offers the organisation's cards as an import target (the service refuses others with 403 anyway);
 * every member may export them. Self-contained: its texts (./_i18n), its API calls (./api.ts) and its dialogs.
 */
import { useState } from 'react';
import { Button } from '@/app/ui/button';
import { DownloadIcon, UploadIcon } from '@/app/ui/icons';
import { ContactsExportDialog } from './export-dialog';
import { ContactsImportDialog } from './import-dialog';
import { useImportExportTexts } from './texts';

export function ContactsImportExport({ canWriteShared }: { canWriteShared: boolean }) {
  const texts = useImportExportTexts();
  const [importing, setImporting] = useState(false);
  const [exporting, setExporting] = useState(false);
  return (
    <div className="flex items-center gap-2">
      <Button onClick={() => setImporting(true)} data-testid="contacts-import">
        <UploadIcon size={16} />
        {texts.importButton}
      </Button>
      <Button onClick={() => setExporting(true)} data-testid="contacts-export">
        <DownloadIcon size={16} />
        {texts.exportButton}
      </Button>
      <ContactsImportDialog open={importing} onOpenChange={setImporting} canWriteShared={canWriteShared} />
      <ContactsExportDialog open={exporting} onOpenChange={setExporting} />
    </div>
  );
}
