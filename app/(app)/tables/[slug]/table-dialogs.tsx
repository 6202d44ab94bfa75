'use client';

/**
 * The table page's dialogs and which of them is open: add a row, import CSV, delete the selected rows
 * and, for administrators, structure, add/edit column, remove column and settings.
 */
import { useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { Alert } from '@/app/ui/alert';
import { ConfirmDialog } from '@/app/ui/dialog';
import { useDeleteRows, type Column, type Table } from '../_lib/api';
import { ColumnDialog, RemoveColumnDialog } from './column-dialog';
import { ImportDialog } from './import/import-dialog';
import { RowDialog } from './row-dialog';
import { SettingsDialog } from './settings-dialog';
import { StructureDialog } from './structure-dialog';

export function useTableDialogs() {
  const [rowDialogOpen, setRowDialogOpen] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  const [structureOpen, setStructureOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [columnDialog, setColumnDialog] = useState<{ open: boolean; column: Column | null }>({ open: false, column: null });
  const [removing, setRemoving] = useState<Column | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  return {
    rowDialogOpen,
    setRowDialogOpen,
    importOpen,
    setImportOpen,
    structureOpen,
    setStructureOpen,
    settingsOpen,
    setSettingsOpen,
    columnDialog,
    setColumnDialog,
    removing,
    setRemoving,
    confirmDelete,
    setConfirmDelete,
  };
}

export type TableDialogsState = ReturnType<typeof useTableDialogs>;

export function TableDialogs({
  table,
  isAdmin,
  dialogs,
  selectedIds,
  onRowAdded,
  onRowsDeleted,
}: {
  table: Table;
  isAdmin: boolean;
  dialogs: TableDialogsState;
  selectedIds: string[];
  onRowAdded: () => void;
  /** After the selected rows are deleted, before the confirmation closes. */
  onRowsDeleted: (count: number) => Promise<void>;
}) {
  const { t } = useI18n();
  const deleteRows = useDeleteRows();
  const { setColumnDialog, setRemoving, setConfirmDelete } = dialogs;
  return (
    <>
      <RowDialog
        table={table}
        open={dialogs.rowDialogOpen}
        onOpenChange={dialogs.setRowDialogOpen}
        onAdded={onRowAdded}
      />
      <ImportDialog table={table} open={dialogs.importOpen} onOpenChange={dialogs.setImportOpen} />
      <ConfirmDialog
        open={dialogs.confirmDelete}
        onOpenChange={(open) => {
          if (!open && !deleteRows.isPending) {
            deleteRows.reset();
            setConfirmDelete(false);
          }
        }}
        title={t.tables.deleteRows.title(selectedIds.length)}
        description={t.tables.deleteRows.body}
        confirmLabel={deleteRows.isPending ? t.tables.deleteRows.deleting : t.tables.deleteRows.confirm}
        pending={deleteRows.isPending}
        error={
          deleteRows.isError ? (
            <Alert tone="danger" testId="delete-rows-error">
              {describeError(deleteRows.error, t)}
            </Alert>
          ) : null
        }
        onConfirm={() =>
          deleteRows.mutate(
            { id: table.id, operations: selectedIds.map((id) => ({ op: 'delete' as const, id })) },
            {
              // The dialog closes once the grid shows the rows gone, whether or not that refresh succeeded.
              onSuccess: ({ results }) =>
                void onRowsDeleted(results.length).finally(() => {
                  deleteRows.reset();
                  setConfirmDelete(false);
                }),
            },
          )
        }
      />
      {isAdmin ? (
        <>
          <StructureDialog
            table={table}
            open={dialogs.structureOpen}
            onOpenChange={dialogs.setStructureOpen}
            onAdd={() => setColumnDialog({ open: true, column: null })}
            onEdit={(column) => setColumnDialog({ open: true, column })}
            onRemove={setRemoving}
          />
          <ColumnDialog
            table={table}
            open={dialogs.columnDialog.open}
            column={dialogs.columnDialog.column}
            onOpenChange={(open) => setColumnDialog((current) => ({ ...current, open }))}
          />
          <RemoveColumnDialog table={table} column={dialogs.removing} onClose={() => setRemoving(null)} />
          <SettingsDialog table={table} open={dialogs.settingsOpen} onOpenChange={dialogs.setSettingsOpen} />
        </>
      ) : null}
    </>
  );
}
