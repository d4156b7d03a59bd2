// The assessments feature's public face: what other features may use (eslint.config.js keeps them to it).
export * from './assessmentsApi';
export * from './format';
export * from './parseOptions';
export * from './performance';
export { ResultLevel } from './ResultLevel';
/** The AI Recommendation buttons and their dialog (the results page offers them too). */
export { RecommendationButtons } from './RecommendationButtons';

/** The create-assessment form, loaded when first opened (app/lazyModal). */
export const loadCreateAssessmentModal = () => import('./CreateAssessmentModal').then((m) => m.CreateAssessmentModal);
/** "Import QTI package…" (a package as a new draft assessment), loaded when first opened. */
export const loadQtiImportDialog = () => import('./QtiImportDialog').then((m) => m.QtiImportDialog);
/** One question's form and what the API takes for it (the district's common assessments reuse them). */
export { QuestionEditor } from './QuestionEditor';
export { questionToSend } from './assessmentSchemas';
