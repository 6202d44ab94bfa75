/**
 * Zod compiles its object parsers with `new Function` when it may, and finds out by calling
 * `Function("")` once. The pages' Content-Security-Policy forbids eval (server/http/security-headers.ts),
 * so that probe fails (zod then parses without compiling) but the browser still reports a policy
 * violation. `jitless` is zod's switch for such environments: no probe, no compiled parsers.
 * Imported first by the client providers, before any schema parses in the browser.
 */
import { z } from 'zod';

z.config({ jitless: true });
