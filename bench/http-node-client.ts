/**
 * The HTTP node's client (issue 25 §1: a sixth of the runner's CPU per run was undici's `fetch` and its web streams):
 * the capability's exchange through the network guard (`server/engine-adapters/http.ts` on `guardedRequest`) against
 * the same exchange through `guardedFetch` (what it used before) and against the floor, undici's bare `request` on a
 * plain agent. A small JSON POST answered by a server in another process (so only the client's CPU is counted),
 * 10 calls in flight, rounds interleaved. Prints CPU per call of this process and the ratio of each to the floor.
 *
 *   npx tsx bench/http-node-client.ts        (alone; no database)
 *   BENCH_HTTP_CLIENT=0 npm run bench        (skips it in the full bench)
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { LookupAddress } from 'node:dns';
import { Agent, request } from 'undici';
import { fixed, table } from './stats';

const serverSource = `
const http = require('node:http');
const server = http.createServer((req, res) => { req.resume(); req.on('end', () => { res.setHeader('content-type', 'application/json'); res.end('{"ok":true,"id":"a1b2c3","items":[1,2,3]}'); }); });
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));
`;

export async function runHttpNodeClientBench(options: { log: (message: string) => void; calls?: number; rounds?: number }): Promise<void> {
  const { log } = options;
  const calls = options.calls ?? (Number(process.env.BENCH_HTTP_CLIENT_CALLS) || 4_000);
  const rounds = options.rounds ?? 3;
  const child = spawn(process.execPath, ['-e', serverSource], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [portLine] = (await once(child.stdout!, 'data')) as [Buffer];
  const port = Number(portLine.toString().trim());
  const { guardedFetch } = await import('../server/core/net/guarded-fetch');
  const { createHttpCapability } = await import('../server/engine-adapters/http');
  const lookup = async (): Promise<LookupAddress[]> => [{ address: '127.0.0.1', family: 4 }];
  const guard = { allowPrivate: false, allowAddress: () => true, lookup };
  const body = JSON.stringify({ event: 'order.paid', orderId: 'A-1001', amount: 42.5 });
  const headers = { 'content-type': 'application/json', 'idempotency-key': 'bench' };
  const url = `http://sink.bench:${port}/hook`;
  const floorAgent = new Agent();
  try {
    const capability = createHttpCapability({ simulated: false, allowHosts: 'sink.bench', lookup });

    const clients: Record<string, () => Promise<unknown>> = {
      'floor: undici request, bare agent': async () => {
        const answer = await request(`http://127.0.0.1:${port}/hook`, { method: 'POST', body, headers, dispatcher: floorAgent });
        return answer.body.text();
      },
      'the HTTP node (guardedRequest)': () =>
        capability.request({ method: 'POST', url, headers, body, maxResponseBytes: 1_000_000, followRedirects: true, signal: new AbortController().signal }),
      'before: guardedFetch + web stream': async () => (await guardedFetch(url, { method: 'POST', body, headers }, guard)).text(),
    };
    const cpuMs: Record<string, number[]> = Object.fromEntries(Object.keys(clients).map((name) => [name, []]));
    log(`\nthe HTTP node's client: ${calls} POSTs per round to a server in another process, 10 in flight, ${rounds} interleaved rounds`);
    for (let round = 0; round <= rounds; round += 1) {
      for (const [name, call] of Object.entries(clients)) {
        const started = process.cpuUsage();
        for (let done = 0; done < calls; done += 10) await Promise.all(Array.from({ length: 10 }, call));
        const used = process.cpuUsage(started);
        // Round 0 warms every client up (JIT, connections) and is not counted.
        if (round > 0) cpuMs[name]!.push((used.user + used.system) / 1000 / calls);
      }
    }
    const best = (name: string) => Math.min(...cpuMs[name]!);
    const floor = best('floor: undici request, bare agent');
    const lines = table([
      ['', 'CPU ms per call (best round)', 'each round', '× floor'],
      ...Object.keys(clients).map((name) => [name, fixed(best(name), 3), cpuMs[name]!.map((value) => fixed(value, 3)).join(' / '), `${fixed(best(name) / floor, 2)}×`]),
    ]);
    for (const line of lines) log(`  ${line}`);
  } finally {
    child.kill();
    await floorAgent.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runHttpNodeClientBench({ log: (message) => console.log(message) });
  // The guard's agents keep their pooled connections: alone, the process ends here.
  process.exit(0);
}
