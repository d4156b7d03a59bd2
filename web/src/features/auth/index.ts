// The auth feature's public face: what other features may use (eslint.config.js keeps them to it).
// The signed-in session itself (user, current-user query, sign-out) is in src/session.
export { useChangePasswordMutation, type ChangePasswordRequest } from './emailApi';
export * from './passwordSchemas';
