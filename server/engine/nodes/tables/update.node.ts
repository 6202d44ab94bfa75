/** Update a row: through the tables engine API, effect-keyed (a retry answers the first write). */
import { z } from 'zod';
import { defineNode } from '../../contract/define-node';
import type { SimulatedWrite } from '../../contract/capabilities';
import type { WriteResult } from '../../contract/capabilities';
import { cellsParam, asCells, tableIdParam } from './shared';

export const updateNode = defineNode({
  type: 'tables.update',
  version: 1,
  category: 'tables',
  label: { en: 'Update a row', fr: 'Modifier une ligne' },
  description: {
    en: 'Changes cells of a table row chosen by its id (at most once per step).',
    fr: 'Modifie des cellules d’une ligne de table choisie par son identifiant (une seule fois par étape).',
  },
  params: z.strictObject({
    tableId: tableIdParam,
    rowId: z.string().min(1).max(100).describe('The row to change (its id, usually from a look-up).'),
    cells: cellsParam,
  }),
  outputs: ['main'],
  effect: 'keyed',
  requires: [],
  scopes: ['tables:write'],
  async execute({ params, capabilities, effect }) {
    const result = await effect<WriteResult | SimulatedWrite>(
      { key: 'update', kind: 'tables.update', description: 'Update a row in ' + params.tableId },
      () => capabilities.tables.write({ effectKey: 'update', op: 'update', tableId: params.tableId, rowId: params.rowId, cells: asCells(params.cells) }),
      // A test run checks the write as the live one would (same code and message), writing nothing.
      () => capabilities.tables.check({ op: 'update', tableId: params.tableId, rowId: params.rowId, cells: asCells(params.cells) }),
    );
    return { data: result };
  },
});
