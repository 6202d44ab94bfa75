/**
 * The engine bench's knobs (bench/README.md, "Knobs"), read once from the environment, and its targets.
 */

function intEnv(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** A section's length in seconds, where 0 skips the section (an unset or malformed value: the fallback). */
function secondsEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = Number(raw);
  return raw !== undefined && raw.trim() !== '' && Number.isFinite(value) && value >= 0 ? value : fallback;
}

export const settings = {
  inflight: intEnv('BENCH_ENGINE_INFLIGHT', 20),
  seconds: intEnv('BENCH_ENGINE_SECONDS', 10),
  aloneSeconds: secondsEnv('BENCH_ENGINE_ALONE_SECONDS', 8),
  rounds: intEnv('BENCH_ENGINE_ROUNDS', 2),
  webhookRate: intEnv('BENCH_ENGINE_WEBHOOK_RATE', 50),
  webhookSeconds: intEnv('BENCH_ENGINE_WEBHOOK_SECONDS', 10),
  burstSeconds: secondsEnv('BENCH_ENGINE_BURST_SECONDS', 10),
  // Bursts one after the other, the median reported: the figure of one burst moved by a third between runs of the
  // same code on this machine (bench/README.md, 2026-12-06).
  bursts: intEnv('BENCH_ENGINE_BURSTS', 3),
  // Then one burst with the workflow at its default slots (BENCH_ENGINE_DEFAULT_SLOTS_BURST=0 skips it).
  defaultSlotsBurst: process.env.BENCH_ENGINE_DEFAULT_SLOTS_BURST !== '0',
};

/**
 * The slots the bench's workflow runs with: the spec's ceiling, so the engine is measured, not the per-workflow policy
 * (its default of 10 would make the latency figure a measure of that setting). The last burst sets the default.
 */
export const benchWorkflowSlots = 100;

export const targets = { throughputRatio: 1.0, stepOverheadP50Ms: 10, webhookP99Ms: 100 };

// e.g. BENCH_RUNNER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the runner's process; BENCH_WEB_NODE_ARGS
// the same for the web process of the webhook section.
const nodeArgsFrom = (value: string | undefined) => (value ?? '').split(/\s+/).filter(Boolean);
export const runnerNodeArgs = nodeArgsFrom(process.env.BENCH_RUNNER_NODE_ARGS);
export const webNodeArgs = nodeArgsFrom(process.env.BENCH_WEB_NODE_ARGS);
