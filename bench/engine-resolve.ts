/**
 * Node types live in `<name>.node.ts` files imported as `./<name>.node` (server/engine/nodes). Vite and Next's
 * bundler find them, but Node's resolver under tsx takes `.node` for a native addon's extension and never tries
 * `.node.ts`, so `tsx runner/main.ts` (and anything importing the node registry) fails with
 * ERR_MODULE_NOT_FOUND. Until the project settles that, the engine bench registers this resolve hook in its
 * own process (`import './engine-resolve'` before the server's modules) and in its children
 * (`--import ./bench/engine-resolve.ts` after tsx): a relative `.node` specifier that is not found is tried
 * again with `.ts`. Nothing else changes; once the imports resolve on their own the hook never acts.
 */
import { register } from 'node:module';

const hook = `
export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (error) {
    if (error && error.code === 'ERR_MODULE_NOT_FOUND' && specifier.startsWith('.') && specifier.endsWith('.node')) {
      return next(specifier + '.ts', context);
    }
    throw error;
  }
}`;

register(`data:text/javascript,${encodeURIComponent(hook)}`);
