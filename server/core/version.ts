/** The service version reported by /healthz and the OpenAPI document. */
import packageJson from '../../package.json' with { type: 'json' };

export const serviceVersion: string = packageJson.version;
export const startedAt = Date.now();
