// The student feature's public face: what other features may use (eslint.config.js keeps them to it).
export * from './studentApi';
