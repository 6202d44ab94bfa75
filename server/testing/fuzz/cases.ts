/**
 * The fuzz cases of one operation: the valid request (templates.ts), single malformed variants of
 * its body, query, path and headers (body-candidates.ts, request-candidates.ts), compounds, and the
 * credential each case is sent with (credentials.ts). Everything is drawn from the seeded generator,
 * so a seed and a budget give the same cases on every run.
 */
import { bodyCandidates, compoundCandidates, rawBodyCandidates } from './body-candidates';
import { credentialsFor } from './credentials';
import type { FuzzOperation } from './operations';
import type { Rng } from './prng';
import { headerCandidates, pathCandidates, queryCandidates } from './request-candidates';
import type { SchemaContext } from './schema';
import { baseTemplate, type CaseFamily, type Candidate, type RequestTemplate } from './templates';
import type { Credential } from './world';

export interface FuzzCase {
  family: CaseFamily;
  label: string;
  credential: Credential;
  /** Header cases replace the credential's own headers. */
  replaceCredentialHeaders?: boolean;
  template: RequestTemplate;
}

export interface CasePlan {
  cases: FuzzCase[];
  candidates: number;
}

/**
 * The cases of an operation for a budget: the valid request with every credential, every priority
 * case, then the others chosen round-robin over families (so every family is represented) up to the
 * budget's cap, each with a passing credential in turn; then a few random cases with each failing
 * credential.
 */
export function planCases(context: SchemaContext, operation: FuzzOperation, rng: Rng, budget: number): CasePlan {
  const base = baseTemplate(context, operation, rng);
  const singles = [
    ...bodyCandidates(context, operation, base, rng),
    ...rawBodyCandidates(operation, base),
    ...queryCandidates(context, operation, base, rng),
    ...pathCandidates(context, operation, base, rng),
    ...headerCandidates(operation, base, rng),
  ];
  const candidates = [...singles, ...compoundCandidates(singles, base, Math.round(8 * budget), rng)];
  const cap = Math.round(90 * budget);
  const chosen: Candidate[] = candidates.filter((candidate) => candidate.priority);
  const limit = chosen.length + cap;
  const byFamily = new Map<CaseFamily, Candidate[]>();
  for (const candidate of candidates) {
    if (candidate.priority) continue;
    byFamily.set(candidate.family, [...(byFamily.get(candidate.family) ?? []), candidate]);
  }
  const queues = rng.sample([...byFamily.values()].map((list) => rng.sample(list, list.length)), byFamily.size);
  while (chosen.length < limit && queues.some((queue) => queue.length)) {
    for (const queue of queues) {
      const next = queue.shift();
      if (next && chosen.length < limit) chosen.push(next);
    }
  }
  const { passing, failing } = credentialsFor(operation);
  const cases: FuzzCase[] = [];
  const toCase = (candidate: Candidate, credential: Credential): FuzzCase => ({
    family: candidate.family,
    label: candidate.label,
    credential,
    replaceCredentialHeaders: Boolean(candidate.credentialOverride),
    template: candidate.credentialOverride ? { ...candidate.template, headers: { ...candidate.template.headers, ...candidate.credentialOverride.headers } } : candidate.template,
  });
  for (const credential of [...passing, ...failing]) cases.push(toCase({ family: 'valid', label: 'valid request', template: base }, credential));
  chosen.forEach((candidate, index) => cases.push(toCase(candidate, passing[index % passing.length])));
  const perFailing = Math.max(3, Math.round(6 * budget));
  for (const credential of failing) {
    for (const candidate of rng.sample(chosen, perFailing)) cases.push(toCase(candidate, credential));
  }
  return { cases, candidates: candidates.length };
}
