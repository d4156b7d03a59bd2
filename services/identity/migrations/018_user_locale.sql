-- The user's interface language (issue 32): 'en' | 'es' (the list is the identity service's
-- src/domain/locales.ts, so a third language needs no migration). Null: never chosen; the
-- interface follows the browser's language and mails go in English.
alter table users add column locale text;
