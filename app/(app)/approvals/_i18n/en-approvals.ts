/** English strings of the approvals inbox. */
export const enApprovals = {
  metaTitle: 'Approvals',
  title: 'Approvals',
  description: 'Decisions your workflows are waiting for. A run waits until you approve or reject, or until the approval expires.',
  filters: { label: 'Approval status' },
  status: { pending: 'Pending', approved: 'Approved', rejected: 'Rejected', expired: 'Expired' },
  approve: 'Approve',
  reject: 'Reject',
  workflow: 'Workflow',
  openRun: 'Open the run',
  noTrigger: 'Not started by an email',
  fromSender: (sender: string) => `From ${sender}`,
  noSubject: '(no subject)',
  expiresAt: (date: string) => `Expires ${date}`,
  expiredAt: (date: string) => `Expired ${date}`,
  decidedBy: (who: string, date: string) => `By ${who}, ${date}`,
  decidedAt: (date: string) => date,
  cancelledRun: 'The run was cancelled',
  decided: { approved: 'Approved: the run continues.', rejected: 'Rejected: the run continues on its rejection path.' },
  empty: {
    pending: { title: 'Nothing to decide', body: 'When a workflow asks for your approval, it appears here.' },
    other: { title: 'No approvals here', body: 'Approvals with this status appear here.' },
  },
  end: 'No more approvals.',
};

export const enApprovalErrors = {
  'approval.not_found': 'This approval no longer exists.',
  'approval.already_decided': 'This approval was already decided, expired or its run was cancelled.',
};
