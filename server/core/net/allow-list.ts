/**
 * An operator's allow list of hosts and networks (`HTTP_NODE_ALLOW_HOSTS`, `LLM_ALLOW_HOSTS`):
 * comma-separated host names and CIDRs (a bare IP is a /32 or /128), lower-cased, internationalised
 * names in their ASCII form; entries that are neither are ignored. Pure; the HTTP node's capability
 * and the llm domain's base URLs read their lists with it.
 */
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { domainToASCII } from 'node:url';

export interface AllowList {
  names: Set<string>;
  networks: BlockList;
  empty: boolean;
}

export function parseAllowHosts(text: string | undefined): AllowList {
  const names = new Set<string>();
  const networks = new BlockList();
  let entries = 0;
  for (const raw of (text ?? '').split(',')) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    const [network, prefixText] = entry.split('/');
    const bare = network.replace(/^\[|\]$/g, '');
    if (isIPv4(bare) || isIPv6(bare)) {
      const family = isIPv4(bare) ? 'ipv4' : 'ipv6';
      const prefix = prefixText === undefined ? (family === 'ipv4' ? 32 : 128) : Number(prefixText);
      if (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 'ipv4' ? 32 : 128)) continue;
      networks.addSubnet(bare, prefix, family);
      entries += 1;
    } else if (prefixText === undefined && /^[a-z0-9_.-]+$/.test(domainToASCII(entry))) {
      names.add(domainToASCII(entry).replace(/\.$/, ''));
      entries += 1;
    }
  }
  return { names, networks, empty: entries === 0 };
}

export function allowAddressFor(list: AllowList): (host: string, address: string) => boolean {
  return (host, address) => {
    if (list.names.has(host.toLowerCase().replace(/\.$/, ''))) return true;
    const family = isIPv4(address) ? 'ipv4' : 'ipv6';
    return list.networks.check(address, family);
  };
}
