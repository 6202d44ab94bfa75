/**
 * Navigation after the session changes (sign-in, sign-out, an accepted invitation): a full page load
 * rather than a client-side push, so nothing the previous session cached (queries, the member in the
 * shell, the socket) outlives it, and the server renders the next page for the new session.
 */
export function loadPageAfterSessionChange(path: '/' | '/login'): void {
  window.location.assign(path);
}
