/** The inbox's status filter, shared by the server page (from `?status=`) and the view. */
export const approvalStatuses = ['pending', 'approved', 'rejected', 'expired'] as const;
export type ApprovalStatus = (typeof approvalStatuses)[number];

export function statusFromSearch(value: string | string[] | undefined): ApprovalStatus {
  return typeof value === 'string' && (approvalStatuses as readonly string[]).includes(value) ? (value as ApprovalStatus) : 'pending';
}
