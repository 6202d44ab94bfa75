import { describe, expect, it, vi } from 'vitest';
import { fakeCapabilities, runNode, runNodeWithEffects } from '../testing';
import { notifyOwnerNode } from './owner.node.ts';

describe('notify.owner', () => {
  it.each([
    [{ title: 'Hi' }, { title: 'Hi', body: '', severity: 'info' }],
    [{ title: 'Down', body: 'Site down', severity: 'error' }, { title: 'Down', body: 'Site down', severity: 'error' }],
  ])('%j notifies %j', async (params, expected) => {
    const capabilities = fakeCapabilities();
    expect(await runNode(notifyOwnerNode, { params, capabilities })).toMatchObject({ data: { notificationId: 'n-1' } });
    expect(capabilities.notify.owner).toHaveBeenCalledWith(expected);
  });

  it('does not notify in a test run', async () => {
    const capabilities = fakeCapabilities({ notify: { owner: vi.fn() } });
    const { result, effects } = await runNodeWithEffects(notifyOwnerNode, { params: { title: 'x' }, capabilities, simulated: true });
    expect(result).toMatchObject({ data: { notificationId: 'simulated' } });
    expect(effects).toEqual([{ key: 'notify', kind: 'notify.owner' }]);
    expect(capabilities.notify.owner).not.toHaveBeenCalled();
  });

  it.each([[{ title: '' }], [{ title: 'x'.repeat(121) }], [{ title: 'x', severity: 'panic' }]])('refuses %j', (params) => {
    expect(notifyOwnerNode.params.safeParse(params).success).toBe(false);
  });
});
