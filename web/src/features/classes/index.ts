// The classes feature's public face: what other features may use (eslint.config.js keeps them to it).
export * from './classesApi';
export * from './classStats';
export { ClassPicker } from './ClassPicker';
export { ConfirmModal } from './ConfirmModal';
export { JoinCodeBadge } from './JoinCodeBadge';
export { NotEnrolledWelcome } from './NotEnrolledWelcome';
export { StudentClassesCard } from './StudentClassesCard';

/** The class forms, loaded when first opened (app/lazyModal). */
export const loadClassManagementModal = () => import('./ClassManagementModal').then((m) => m.ClassManagementModal);
export const loadCreateClassModal = () => import('./CreateClassModal').then((m) => m.CreateClassModal);
