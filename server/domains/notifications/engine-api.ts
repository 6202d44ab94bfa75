/**
 * What the engine's adapters (server/engine-adapters/: the `notify` capability and the run-end hooks)
 * may use of the notifications domain. Re-exports only.
 */
export { notify } from './notify';
