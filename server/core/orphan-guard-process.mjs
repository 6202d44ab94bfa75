// The guardian program of orphan-guard.ts (plain JavaScript so it starts in milliseconds, without
// a TypeScript loader). Usage: node orphan-guard-process.mjs <signal> <grace-ms> <target>...
// A target is a pid, or a negative number for a whole process group.
//
// It runs in its own session and its stdin is a pipe from the process it guards: end of input means
// that process is gone (even killed with SIGKILL), so the targets are now orphans. It sends them
// <signal>, waits up to <grace-ms> for them to exit, then SIGKILLs what is left.
const [signal, graceText, ...targetTexts] = process.argv.slice(2);
const graceMs = Number(graceText);
const targets = targetTexts.map(Number).filter((target) => Number.isInteger(target) && target !== 0);

function send(target, name) {
  try {
    process.kill(target, name);
    return true;
  } catch {
    return false;
  }
}

const alive = (target) => send(target, 0);

let fired = false;
async function reap() {
  if (fired) return;
  fired = true;
  for (const target of targets) send(target, signal);
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && targets.some(alive)) await new Promise((resolve) => setTimeout(resolve, 200));
  for (const target of targets) if (alive(target)) send(target, 'SIGKILL');
  process.exit(0);
}

process.stdin.on('data', () => {});
process.stdin.on('end', reap);
process.stdin.on('close', reap);
process.stdin.on('error', reap);
