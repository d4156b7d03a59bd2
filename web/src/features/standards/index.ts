// The standards feature's public face: what other features may use (eslint.config.js keeps them to it).
export * from './standardsApi';
export { StandardChips } from './StandardChips';
export { MAX_STANDARDS, StandardsPicker } from './StandardsPicker';
export { ClassMasterySection } from './ClassMasterySection';
export { StudentStandards } from './StudentStandards';
