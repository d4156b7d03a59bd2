-- LTI client-side postMessage storage (docs/adr/014-lti.md): the platform's storage frame a login
-- named (`lti_storage_target`); null when it named none. A login that used it keeps its browser
-- binding there, and its launch must bring that binding back (from the cookie or the storage).
alter table lti_login_states add column storage_target text;
