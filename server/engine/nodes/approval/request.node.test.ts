import { describe, expect, it, vi } from 'vitest';
import { NodeFailure } from '../../contract/failures';
import { fakeCapabilities, runNode } from '../testing';
import { approvalRequestNode } from './request.node.ts';

const now = new Date('2026-03-01T10:00:00Z');

describe('approval.request', () => {
  it('asks once and waits until the deadline (default 3 days)', async () => {
    const capabilities = fakeCapabilities();
    const result = await runNode(approvalRequestNode, { params: { title: 'Pay invoice', approverEmails: ['Boss@Example.test', 'boss@example.test'] }, capabilities, now });
    const until = new Date(now.getTime() + 3 * 86_400_000);
    expect(result).toEqual({ kind: 'suspend', mode: 'waiting', until, state: { approvalId: 'ap-1', expiresAt: until.toISOString() } });
    expect(capabilities.approvals.request).toHaveBeenCalledWith({
      nodeId: 'n1',
      title: 'Pay invoice',
      details: null,
      expiresAt: until,
      approverEmails: ['boss@example.test'],
      mailboxId: null,
    });
  });

  it('honours expiresIn and the chosen mailbox', async () => {
    const capabilities = fakeCapabilities();
    await runNode(approvalRequestNode, { params: { title: 'x', details: 'why', expiresIn: { amount: 2, unit: 'hours' }, mailboxId: 'mb-9' }, capabilities, now });
    expect(capabilities.approvals.request).toHaveBeenCalledWith(expect.objectContaining({ details: 'why', expiresAt: new Date(now.getTime() + 7_200_000), mailboxId: 'mb-9' }));
  });

  it.each([
    [{ decision: 'approve', decidedBy: 'me@example.test' }, 'approve', { decision: 'approved', approvalId: 'ap-1', decidedBy: 'me@example.test' }],
    [{ decision: 'reject', decidedBy: 'email link' }, 'reject', { decision: 'rejected', approvalId: 'ap-1', reason: null, decidedBy: 'email link' }],
  ])('a decision %j takes the %s port', async (payload, output, data) => {
    const result = await runNode(approvalRequestNode, { params: { title: 'x' }, state: { approvalId: 'ap-1' }, resume: { reason: 'decision', payload } });
    expect(result).toEqual({ output, data });
  });

  it('the deadline expires the approval and takes the reject port (not a failure)', async () => {
    const capabilities = fakeCapabilities();
    const result = await runNode(approvalRequestNode, { params: { title: 'x' }, state: { approvalId: 'ap-1' }, resume: { reason: 'timer' }, capabilities });
    expect(capabilities.approvals.expire).toHaveBeenCalledWith({ nodeId: 'n1' });
    expect(result).toEqual({ output: 'reject', data: { decision: 'expired', approvalId: 'ap-1', reason: 'expired', decidedBy: null } });
  });

  it('at the deadline, a decision that got there first wins', async () => {
    const capabilities = fakeCapabilities({ approvals: { expire: vi.fn(async () => ({ approvalId: 'ap-1', status: 'approved' as const, decidedBy: 'me@example.test', reason: null, expiresAt: now.toISOString() })) } });
    const result = await runNode(approvalRequestNode, { params: { title: 'x' }, resume: { reason: 'timer' }, capabilities });
    expect(result).toEqual({ output: 'approve', data: { decision: 'approved', approvalId: 'ap-1', decidedBy: 'me@example.test' } });
  });

  it('an approval already decided when the step asks again takes its port at once', async () => {
    const capabilities = fakeCapabilities({ approvals: { request: vi.fn(async () => ({ approvalId: 'ap-1', status: 'rejected' as const, decidedBy: 'a@example.test', reason: null, expiresAt: now.toISOString() })) } });
    expect(await runNode(approvalRequestNode, { params: { title: 'x' }, capabilities })).toEqual({ output: 'reject', data: { decision: 'rejected', approvalId: 'ap-1', reason: null, decidedBy: 'a@example.test' } });
  });

  it('a test run approves at once and asks nothing', async () => {
    const capabilities = fakeCapabilities();
    expect(await runNode(approvalRequestNode, { params: { title: 'x', approverEmails: ['a@example.test'] }, capabilities, simulated: true })).toEqual({
      output: 'approve',
      data: { decision: 'approved', simulated: true },
    });
    expect(capabilities.approvals.request).not.toHaveBeenCalled();
  });

  it('passes the capability’s failure on (no mailbox for the email)', async () => {
    const capabilities = fakeCapabilities({ approvals: { request: vi.fn(async () => Promise.reject(new NodeFailure('mail.mailbox_required'))) } });
    await expect(runNode(approvalRequestNode, { params: { title: 'x', approverEmails: ['a@example.test'] }, capabilities })).rejects.toMatchObject({ code: 'mail.mailbox_required', kind: 'permanent' });
  });

  it.each([
    [{}],
    [{ title: '' }],
    [{ title: 'x'.repeat(201) }],
    [{ title: 'x', expiresIn: { amount: 31, unit: 'days' } }],
    [{ title: 'x', expiresIn: { amount: 5, unit: 'seconds' } }],
    [{ title: 'x', approverEmails: ['not an address'] }],
    [{ title: 'x', approverEmails: Array.from({ length: 11 }, (_, index) => `a${index}@example.test`) }],
    [{ title: 'x', other: 1 }],
  ])('refuses %j', (params) => {
    expect(approvalRequestNode.params.safeParse(params).success).toBe(false);
  });

  it('accepts 30 days exactly', () => {
    expect(approvalRequestNode.params.safeParse({ title: 'x', expiresIn: { amount: 30, unit: 'days' } }).success).toBe(true);
  });
});
