/** Where the API reference lives: its page, and its assets by name (reference-assets.ts has the table). */
import type { ReferenceAssetName } from './reference-assets';

export const referencePagePath = '/api/reference';

export const referenceAssetsPath = '/api/reference/assets';

export function referenceAssetPath(name: ReferenceAssetName): string {
  return `${referenceAssetsPath}/${name}`;
}
