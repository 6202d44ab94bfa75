/**
 * The link with the operator's control plane, read from three environment variables (see
 * `.env.example`): `CONTROL_PLANE_URL`, `CONTROL_PLANE_INSTANCE_ID`, `CONTROL_PLANE_SECRET`. The instance
 * is *linked* when the three are set; none set means unlinked (support threads are read-only). A partial
 * or malformed link stops the start with the variable named, rather than failing on the first sync.
 *
 * Pure: `./config.ts` calls it while parsing the environment. Messages never quote the secret.
 */

export interface ControlPlaneLink {
  /** The operator's API root, without a trailing slash (`https://control.example.com/api`). */
  url: string;
  instanceId: string;
  secret: string;
}

export interface ControlPlaneEnv {
  NODE_ENV: 'development' | 'production' | 'test';
  CONTROL_PLANE_URL: string | null;
  CONTROL_PLANE_INSTANCE_ID: string | null;
  CONTROL_PLANE_SECRET: string | null;
}

export const controlPlaneBounds = { instanceId: 200, secretMin: 16, secretMax: 1_000, url: 2_000 } as const;

const instanceIdShape = /^[A-Za-z0-9._:-]+$/;

function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** What is wrong with the link's variables, one sentence per problem (empty: fine). */
export function controlPlaneProblems(env: ControlPlaneEnv): string[] {
  const { CONTROL_PLANE_URL: url, CONTROL_PLANE_INSTANCE_ID: instanceId, CONTROL_PLANE_SECRET: secret } = env;
  if (url === null && instanceId === null && secret === null) return [];
  const problems: string[] = [];
  if (url === null) problems.push('CONTROL_PLANE_URL is required when CONTROL_PLANE_INSTANCE_ID or CONTROL_PLANE_SECRET is set');
  if (instanceId === null) problems.push('CONTROL_PLANE_INSTANCE_ID is required to link the instance to its control plane');
  if (secret === null) problems.push('CONTROL_PLANE_SECRET is required to link the instance to its control plane');
  if (url !== null) problems.push(...urlProblems(url, env.NODE_ENV));
  if (instanceId !== null && (instanceId.length > controlPlaneBounds.instanceId || !instanceIdShape.test(instanceId))) {
    problems.push(`CONTROL_PLANE_INSTANCE_ID must be 1-${controlPlaneBounds.instanceId} characters of letters, digits, '.', '_', ':' and '-'`);
  }
  if (secret !== null && (secret.length < controlPlaneBounds.secretMin || secret.length > controlPlaneBounds.secretMax || /\s/.test(secret))) {
    problems.push(`CONTROL_PLANE_SECRET must be ${controlPlaneBounds.secretMin}-${controlPlaneBounds.secretMax} characters without spaces`);
  }
  return problems;
}

function urlProblems(text: string, nodeEnv: ControlPlaneEnv['NODE_ENV']): string[] {
  const example = 'e.g. https://control.example.com';
  if (text.length > controlPlaneBounds.url) return [`CONTROL_PLANE_URL is longer than ${controlPlaneBounds.url} characters`];
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return [`CONTROL_PLANE_URL must be an https URL (${example})`];
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return [`CONTROL_PLANE_URL must be an https URL (${example})`];
  const problems: string[] = [];
  if (url.username || url.password) problems.push('CONTROL_PLANE_URL must not carry a user name or password (the credential is CONTROL_PLANE_SECRET)');
  if (url.search || url.hash || text.includes('?') || text.includes('#')) problems.push('CONTROL_PLANE_URL must not have a query or fragment');
  // Plain http is accepted where nothing travels on a network: a loopback host (an operator's local tunnel or
  // sidecar, whatever NODE_ENV says), and any host in tests.
  if (url.protocol === 'http:' && !(nodeEnv === 'test' || isLoopbackHost(url.hostname))) {
    problems.push(`CONTROL_PLANE_URL must use https (http only for a loopback host, or in tests) (${example})`);
  }
  return problems;
}

/** The link, or null when the instance is not linked. Call after `controlPlaneProblems` found none. */
export function controlPlaneLinkOf(env: ControlPlaneEnv): ControlPlaneLink | null {
  const { CONTROL_PLANE_URL: url, CONTROL_PLANE_INSTANCE_ID: instanceId, CONTROL_PLANE_SECRET: secret } = env;
  if (url === null || instanceId === null || secret === null) return null;
  return { url: url.replace(/\/+$/, ''), instanceId, secret };
}
