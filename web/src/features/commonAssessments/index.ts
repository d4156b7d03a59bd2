// The common assessments feature's public face: what other features may use (eslint.config.js keeps
// them to it). The admin's page is a lazily loaded screen (routes/routeTable.ts).
export { DistrictAssessments } from './DistrictAssessments';
