import { describe, expect, it } from 'vitest';
import { planExecution, type PlanGraph, type PlanStep } from './plan';

const chain: PlanGraph = {
  triggerNodeId: 't',
  nodes: [{ id: 't' }, { id: 'if' }, { id: 'yes' }, { id: 'no' }, { id: 'after' }],
  connections: [
    { from: 't', output: 'main', to: 'if' },
    { from: 'if', output: 'true', to: 'yes' },
    { from: 'if', output: 'false', to: 'no' },
    { from: 'yes', output: 'main', to: 'after' },
    { from: 'no', output: 'main', to: 'after' },
  ],
};

const steps = (entries: Record<string, PlanStep>) => new Map(Object.entries(entries));
const ok = (output = 'main'): PlanStep => ({ status: 'succeeded', output });

describe('planExecution', () => {
  it('runs the trigger first', () => {
    expect(planExecution(chain, steps({}))).toMatchObject({ ready: ['t'], skip: [], finished: false });
  });

  it('runs a node once its source succeeded on the connected port', () => {
    expect(planExecution(chain, steps({ t: ok() })).ready).toEqual(['if']);
  });

  it('skips the branch whose port was not taken, and runs the one that was', () => {
    const plan = planExecution(chain, steps({ t: ok(), if: ok('true') }));
    expect(plan.ready).toEqual(['yes']);
    expect(plan.skip).toEqual(['no']);
  });

  it('runs a join when one of its sources is active and the others are decided', () => {
    expect(planExecution(chain, steps({ t: ok(), if: ok('false'), no: ok(), yes: { status: 'skipped', output: null } })).ready).toEqual(['after']);
  });

  it('waits while a source is still running or waiting', () => {
    const plan = planExecution(chain, steps({ t: ok(), if: { status: 'running', output: null } }));
    expect(plan).toMatchObject({ ready: [], pending: ['if'], finished: false });
  });

  it('skips a node only reached by the error port when the step succeeded on main (errorPort)', () => {
    const graph: PlanGraph = {
      triggerNodeId: 't',
      nodes: [{ id: 't' }, { id: 'http' }, { id: 'onFailure' }, { id: 'next' }],
      connections: [
        { from: 't', output: 'main', to: 'http' },
        { from: 'http', output: 'error', to: 'onFailure' },
        { from: 'http', output: 'main', to: 'next' },
      ],
    };
    expect(planExecution(graph, steps({ t: ok(), http: ok('error') }))).toMatchObject({ ready: ['onFailure'], skip: ['next'] });
  });

  it('is finished when every node is final or skipped, and skips cascade', () => {
    const plan = planExecution(chain, steps({ t: ok(), if: ok('true'), yes: { status: 'failed', output: null } }));
    expect(plan.skip).toEqual(['no', 'after']);
    expect(plan.finished).toBe(true);
  });

  it('skips nodes with no incoming connection that are not the trigger', () => {
    const graph: PlanGraph = { triggerNodeId: 't', nodes: [{ id: 't' }, { id: 'orphan' }], connections: [] };
    expect(planExecution(graph, steps({}))).toMatchObject({ ready: ['t'], skip: ['orphan'] });
  });

  it('in a test run up to a node, skips the nodes that do not lead to it', () => {
    const plan = planExecution({ ...chain, runUntil: 'if' }, steps({ t: ok(), if: ok('true') }));
    expect(plan.skip).toEqual(['yes', 'no', 'after']);
    expect(plan.finished).toBe(true);
  });

  it('keeps steps copied by a replay as done', () => {
    expect(planExecution(chain, steps({ t: ok(), if: ok('true'), yes: ok() })).ready).toEqual(['after']);
  });
});
