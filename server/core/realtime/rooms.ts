/**
 * Rooms every member socket joins on connect (server/http/realtime-server.ts), so any process can
 * reach a member's sockets, or one session's, through PostgreSQL without knowing where they are.
 */
export function memberRoom(memberId: string): string {
  return `member:${memberId}`;
}

export function sessionRoom(sessionId: string): string {
  return `session:${sessionId}`;
}
