import { describe, expect, it } from 'vitest';
import { latestNodeTypes } from '../../../engine/nodes/registry';
import { starterTemplates } from './index';

// A starter template is what a member installs today: it names each node type's newest version, so
// its conditions compare text as the palette's nodes do (case-insensitive: logic.if@2, issue 19 §6).
describe('the starter catalogue', () => {
  it('Templates create the newest version of each node type', () => {
    const newest = new Map(latestNodeTypes().map((definition) => [definition.type, definition.version]));
    const older = starterTemplates.flatMap((template) =>
      (template.graph.nodes ?? []).filter((node) => node.version !== newest.get(node.type)).map((node) => `${template.slug}: ${node.type}@${node.version}`),
    );
    expect(older).toEqual([]);
  });
});
