// The join-class feature's public face: what other features may use (eslint.config.js keeps them to it).
export * from './pendingJoin';
export { usePendingJoin } from './usePendingJoin';
