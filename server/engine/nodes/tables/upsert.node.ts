/** Insert or update a row: through the tables engine API, effect-keyed (a retry answers the first write). */
import { z } from 'zod';
import { defineNode } from '../../contract/define-node';
import type { SimulatedWrite } from '../../contract/capabilities';
import type { WriteResult } from '../../contract/capabilities';
import { cellsParam, asCells, tableIdParam } from './shared';

export const upsertNode = defineNode({
  type: 'tables.upsert',
  version: 1,
  category: 'tables',
  label: { en: 'Insert or update a row', fr: 'Ajouter ou modifier une ligne' },
  description: {
    en: 'Updates the row with the key in the cells, or adds it when there is none (at most once per step).',
    fr: 'Modifie la ligne ayant la clé donnée dans les cellules, ou l’ajoute s’il n’y en a pas (une seule fois par étape).',
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
      { key: 'upsert', kind: 'tables.upsert', description: 'Insert or update a row in ' + params.tableId },
      () => capabilities.tables.write({ effectKey: 'upsert', op: 'upsert', tableId: params.tableId, cells: asCells(params.cells) }),
      // A test run checks the write as the live one would (same code and message), writing nothing.
      () => capabilities.tables.check({ op: 'upsert', tableId: params.tableId, cells: asCells(params.cells) }),
    );
    return { data: result };
  },
});
