/**
 * The outbound domain's public face: what other domains, the HTTP layer and the runner may import from it
 * (ESLint refuses their imports of any other file here). Re-exports only; the code lives in the files named.
 */
export { createOutbound, enqueueSend } from './create';
export type { OutboundAttachment } from './create';
export { purgeOutboundContent } from './housekeeping';
export { runSend } from './send/pipeline';
export { sendSweepTiming, sweepSends } from './send/sweeper';
