/**
 * The OpenAPI documents (en, fr) as committed files, so every change of the contract (a route, a
 * parameter, a status, an error code, a text) shows in review as a diff of
 * server/openapi/golden/openapi.<lang>.json.
 *
 * After an intended change, regenerate both files and commit them with the change:
 *
 *   UPDATE_GOLDEN=1 npx vitest run server/openapi
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../http/plain/routes';
import type { Lang } from './document';

const regenerate = 'the contract changed: if intended, run `UPDATE_GOLDEN=1 npx vitest run server/openapi` and commit the files';

function goldenPath(lang: Lang): string {
  return fileURLToPath(new URL(`./golden/openapi.${lang}.json`, import.meta.url));
}

/** The package version moves with every release, not with the contract. */
function comparable(document: unknown): Record<string, unknown> {
  const copy = structuredClone(document) as { info: { version: string } };
  copy.info.version = '<version>';
  return copy as unknown as Record<string, unknown>;
}

describe('golden OpenAPI documents', () => {
  it.each(['en', 'fr'] as const)('the %s document equals its golden file', (lang) => {
    const actual = comparable(openApiDocument(lang));
    const path = goldenPath(lang);
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(path, `${JSON.stringify(actual, null, 2)}\n`);
    expect(existsSync(path), `${path} is missing: ${regenerate}`).toBe(true);
    expect(actual, regenerate).toEqual(JSON.parse(readFileSync(path, 'utf8')));
  });
});
