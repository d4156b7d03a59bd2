// The assessment-results feature's public face: what other features may use (eslint.config.js keeps them to it).
export { LevelsChart } from './charts/LevelsChart';
export { LevelsOverTimeChart, type LevelsPeriod } from './charts/LevelsOverTimeChart';
