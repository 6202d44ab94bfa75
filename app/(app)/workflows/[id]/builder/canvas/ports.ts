/**
 * The ports a node shows: its type's inputs and outputs, a switch's outputs from its cases (the
 * catalogue says `null` when they depend on parameters), and the `error` output when the node's
 * `onError` is `errorPort`.
 */
import type { EditorNode } from '../model/editor-graph';

export interface PortFacts {
  inputs: readonly string[];
  outputs: readonly string[] | null;
}

export function outputsOf(node: Pick<EditorNode, 'params' | 'onError'>, type: PortFacts | undefined): string[] {
  let outputs: string[];
  if (!type) outputs = ['main'];
  else if (type.outputs) outputs = [...type.outputs];
  else {
    const cases = Array.isArray(node.params.cases) ? node.params.cases : [];
    outputs = [
      ...cases.map((entry) => (entry && typeof entry === 'object' && typeof (entry as { name?: unknown }).name === 'string' ? (entry as { name: string }).name : '')).filter(Boolean),
      'fallback',
    ];
  }
  if (node.onError === 'errorPort' && !outputs.includes('error')) outputs.push('error');
  return outputs;
}

export function inputsOf(type: PortFacts | undefined): string[] {
  return type ? [...type.inputs] : ['main'];
}

/**
 * The labels a node draws beside its outputs, as the canvas shows them: none for a single `main`
 * output, else each output's word (`labels`, the builder's texts) or its name (a switch's cases).
 */
export function outputLabelsOf(node: Pick<EditorNode, 'params' | 'onError'>, type: PortFacts | undefined, labels: Record<string, string>): string[] {
  const outputs = outputsOf(node, type);
  const named = outputs.length > 1 || (outputs[0] ?? 'main') !== 'main';
  return named ? outputs.map((output) => labels[output] ?? output) : [];
}
