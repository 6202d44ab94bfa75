/** Look up: the row of a table whose key column has the given value (`found` false when none). */
import { z } from 'zod';
import { defineNode } from '../../contract/define-node';
import { keyParam, tableIdParam } from './shared';

export const lookupNode = defineNode({
  type: 'tables.lookup',
  version: 1,
  category: 'tables',
  label: { en: 'Look up a row', fr: 'Chercher une ligne' },
  description: {
    en: 'Finds the row of a table by its key value.',
    fr: 'Trouve la ligne d’une table par sa valeur de clé.',
  },
  params: z.strictObject({ tableId: tableIdParam, key: keyParam }),
  outputs: ['main'],
  effect: 'none',
  requires: [],
  scopes: ['tables:read'],
  async execute({ params, capabilities }) {
    const row = await capabilities.tables.lookup({ tableId: params.tableId, key: params.key });
    return { data: { found: row !== null, row } };
  },
});
