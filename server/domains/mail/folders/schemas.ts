import { z } from 'zod';
import { folderRoles, mailboxIdParam } from '../schemas';

export const folderSchema = z
  .object({
    key: z.string().min(1).max(256),
    role: z.enum(folderRoles).nullable(),
    label: z.string().nullable(),
    name: z.string().nullable(),
    parentKey: z.string().nullable(),
    color: z.string().nullable(),
    depth: z.number().int().min(0),
    unreadCount: z.number().int().min(0),
    totalCount: z.number().int().min(0),
  })
  .meta({ id: 'Folder' });

export type FolderOutput = z.infer<typeof folderSchema>;

export const listFoldersInput = z.object({ mailboxId: mailboxIdParam });

export const listFoldersOutput = z.object({
  folders: z.array(folderSchema),
  capabilities: z.object({ permanentDelete: z.boolean() }),
});
