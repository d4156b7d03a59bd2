// Students without email (docs/adr/015-students-without-email.md).
export { StudentLoginsSection } from './StudentLoginsSection';
export { ClassCodeSignIn } from './ClassCodeSignIn';
export { emptySecret, SecretFields, secretOf } from './SecretFields';
