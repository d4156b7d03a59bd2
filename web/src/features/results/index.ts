// The results feature's public face: what other features may use (eslint.config.js keeps them to it).
export * from './resultsApi';
export * from './levels';
export * from './useLiveResults';
export { ClassResultsPanel } from './ClassResultsPanel';
export { LevelLegend } from './LevelLegend';
