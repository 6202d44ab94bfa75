import { TRPCClientError } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import { graphIssuesOf, graphText, parseGraphText } from './graph-issues';

function clientError(appError: unknown) {
  const error = new TRPCClientError('refused');
  Object.assign(error, { data: { appError } });
  return error;
}

describe('graph issues', () => {
  it('reads the issues of a refused graph with their paths', () => {
    const error = clientError({
      code: 'workflow.invalid_graph',
      message: 'The graph is not valid.',
      details: { issues: [{ path: 'nodes[1].type', message: 'Unknown node type.' }, { path: ['connections', 0, 'to'], message: 'No such node.' }, 'junk'] },
    });
    expect(graphIssuesOf(error)).toEqual([
      { path: 'nodes[1].type', message: 'Unknown node type.' },
      { path: 'connections[0].to', message: 'No such node.' },
    ]);
  });

  it('ignores other errors', () => {
    expect(graphIssuesOf(clientError({ code: 'workflow.archived', message: '', details: { issues: [{ path: 'x', message: 'y' }] } }))).toEqual([]);
    expect(graphIssuesOf(new Error('network'))).toEqual([]);
  });

  it('parses the textarea: empty, JSON object, or why not', () => {
    expect(parseGraphText('  ')).toEqual({ ok: true, graph: undefined });
    expect(parseGraphText('{"nodes":[]}')).toEqual({ ok: true, graph: { nodes: [] } });
    expect(parseGraphText('[1]')).toEqual({ ok: false, reason: 'not_object' });
    expect(parseGraphText('{nodes')).toMatchObject({ ok: false, reason: 'not_json' });
  });

  it('shows the draft without the server ids', () => {
    expect(graphText({ id: 'g', workflowId: 'w', nodes: [], connections: [] })).toBe('{\n  "nodes": [],\n  "connections": []\n}');
    expect(graphText(null)).toBe('');
  });
});
