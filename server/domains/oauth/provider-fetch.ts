/**
 * The one door of OAuth calls to the providers. The endpoints come from the instance configuration,
 * not from members, but they still go through the network guard every outbound connection uses
 * (loopback and private hosts only when MAIL_ALLOW_PRIVATE_HOSTS is set; the tests' fakes are local).
 */
import { guardedFetch } from '../../core/net/guarded-fetch';
import { allowPrivateHosts } from '../../core/net/network-guard';

export interface ProviderRequest {
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

export function providerFetch(url: string, init: ProviderRequest) {
  return guardedFetch(url, init, { allowPrivate: allowPrivateHosts(), timeoutMs: 15_000 });
}
