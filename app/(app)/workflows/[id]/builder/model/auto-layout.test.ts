import { describe, expect, it } from 'vitest';
import { outputLabelsOf } from '../canvas/ports';
import { autoLayout, nodeBox } from './auto-layout';
import { addNode, connect, emptyEditorGraph, type EditorGraph } from './editor-graph';

const switchType = { inputs: ['main'], outputs: null };
const plainType = { inputs: ['main'], outputs: ['main'] };
const caseNames = ['refund-requests-from-customers', 'invoices-to-pay-this-month', 'everything-about-the-move'];
const words = { fallback: 'otherwise' };

/** A switch with long case names, each case leading to its own step. */
function switchGraph(): EditorGraph {
  let graph = emptyEditorGraph;
  graph = addNode(graph, { type: 'logic.switch', version: 2, label: 'Switch', params: { cases: caseNames.map((name) => ({ name, conditions: [] })) }, position: { x: 0, y: 0 } }).graph;
  const switchId = graph.nodes[0].id;
  for (const name of [...caseNames, 'fallback']) {
    graph = addNode(graph, { type: 'data.set', version: 1, label: 'Set', params: {}, position: { x: 0, y: 0 } }).graph;
    graph = connect(graph, { from: switchId, output: name, to: graph.nodes[graph.nodes.length - 1].id });
  }
  return graph;
}

describe('Tidy up', () => {
  it('Node labels stay readable after Tidy up: the next column starts after the longest output label', () => {
    const graph = switchGraph();
    const [switchNode, ...targets] = graph.nodes;
    const labelsOf = (node: (typeof graph.nodes)[number]) => outputLabelsOf(node, node.type === 'logic.switch' ? switchType : plainType, words);
    expect(labelsOf(switchNode)).toEqual([...caseNames, 'otherwise']);
    const positions = autoLayout(graph, { outputLabels: labelsOf });
    const labelEnd = positions.get(switchNode.id)!.x + nodeBox.width + Math.max(...caseNames.map((name) => name.length)) * 6;
    for (const target of targets) expect(positions.get(target.id)!.x).toBeGreaterThan(labelEnd);
  });

  it('Node labels stay readable after Tidy up: a node with many outputs gets the height its stacked labels need', () => {
    const names = Array.from({ length: 8 }, (_, index) => `case-${index + 1}`);
    let graph = addNode(emptyEditorGraph, { type: 'trigger.webhook', version: 1, label: 'Start', params: {}, position: { x: 0, y: 0 } }).graph;
    for (const label of ['First', 'Second']) {
      graph = addNode(graph, { type: 'logic.switch', version: 2, label, params: { cases: names.map((name) => ({ name, conditions: [] })) }, position: { x: 0, y: 0 } }).graph;
      graph = connect(graph, { from: graph.nodes[0].id, output: 'main', to: graph.nodes[graph.nodes.length - 1].id });
    }
    const positions = autoLayout(graph, { outputLabels: (node) => outputLabelsOf(node, node.type === 'logic.switch' ? switchType : plainType, words) });
    const [first, second] = graph.nodes.slice(1).map((node) => positions.get(node.id)!.y).sort((a, b) => a - b);
    // Nine labels (eight cases and "otherwise"), each about 20 px apart on the node.
    expect(second - first).toBeGreaterThanOrEqual(9 * 20);
  });
});
