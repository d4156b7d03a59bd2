// Imported first by main.tsx, before any schema is built: zod's compiled parsers would probe
// `new Function`, which our CSP (script-src 'self', no 'unsafe-eval') refuses and reports as a
// violation. The interpreted parsers are fast enough for forms. zod keeps its settings on
// globalThis and keeps what it finds there (zod/v4/core `globalConfig`), so setting them here
// leaves zod itself (about 20 KB gzip) to the pages with forms. zodConfig.test.ts holds zod to it.
const settings = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
(settings.__zod_globalConfig ??= {}).jitless = true;

export {};
