import { jobCatalogue } from '../../server/core/jobs/catalogue';
import { runSend } from '../../server/domains/outbound';
import { runnerIdentity } from '../runner-identity';
import { defineTask } from './define-task';

/** Sends one outbound message through its mailbox, at most once (server/domains/outbound/send/pipeline.ts). */
export const mailSendTask = defineTask('mail.send', jobCatalogue['mail.send'], async ({ outboundId }) => {
  await runSend(outboundId, { runnerId: runnerIdentity() });
});
