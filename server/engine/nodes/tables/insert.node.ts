/** Insert a row: through the tables engine API, effect-keyed (a retry answers the first write). */
import { z } from 'zod';
import { defineNode } from '../../contract/define-node';
import type { SimulatedWrite } from '../../contract/capabilities';
import type { WriteResult } from '../../contract/capabilities';
import { cellsParam, asCells, tableIdParam } from './shared';

export const insertNode = defineNode({
  type: 'tables.insert',
  version: 1,
  category: 'tables',
  label: { en: 'Insert a row', fr: 'Ajouter une ligne' },
  description: {
    en: 'Adds a row to a table (at most once per step, even when retried).',
    fr: 'Ajoute une ligne à une table (une seule fois par étape, même en cas de nouvelle tentative).',
  },
  params: z.strictObject({
    tableId: tableIdParam,
    cells: cellsParam,
  }),
  outputs: ['main'],
  effect: 'keyed',
  requires: [],
  scopes: ['tables:write'],
  async execute({ params, capabilities, effect }) {
    const result = await effect<WriteResult | SimulatedWrite>(
      { key: 'insert', kind: 'tables.insert', description: 'Insert a row in ' + params.tableId },
      () => capabilities.tables.write({ effectKey: 'insert', op: 'insert', tableId: params.tableId, cells: asCells(params.cells) }),
      // A test run checks the write as the live one would (same code and message), writing nothing.
      () => capabilities.tables.check({ op: 'insert', tableId: params.tableId, cells: asCells(params.cells) }),
    );
    return { data: result };
  },
});
