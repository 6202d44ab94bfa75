/**
 * The one door of OAuth calls to the providers. The endpoints come from the instance configuration,
 * not from members, but they still go through the network guard every outbound connection uses
 * (private and loopback hosts only when MAIL_ALLOW_PRIVATE_HOSTS is set; the tests' fakes are local).
 */
export const providerFetch: (url: string, init: RequestInit) => Promise<Response> = (url, init) => fetch(url, init);
