/**
 * Another process holding some of an account's provider call slots (server/mail/providers/call-slots.ts), for
 * call-slots.int.test.ts: takes SLOTS_HOLD of the slots of SLOTS_KEY (4 in all), prints `held <n>`, and gives
 * them back and exits when its stdin ends. Environment: DATABASE_URL, SLOTS_KEY, SLOTS_HOLD.
 */
import { disconnectDb } from '../core/db';
import { callSlots, graphConcurrentRequests, type ReleaseSlot } from '../mail/providers/call-slots';

const key = process.env.SLOTS_KEY;
const hold = Number(process.env.SLOTS_HOLD);
if (!key || !Number.isInteger(hold) || hold < 1) throw new Error('SLOTS_KEY and SLOTS_HOLD are required');

const slots = callSlots(key, graphConcurrentRequests);
const releases: ReleaseSlot[] = [];
for (let index = 0; index < hold; index += 1) releases.push(await slots.take(60_000));
console.log(`held ${releases.length}`);

async function giveBackAndExit(): Promise<void> {
  for (const release of releases) await release();
  await disconnectDb();
  process.exit(0);
}

process.stdin.resume();
process.stdin.once('end', () => void giveBackAndExit());
