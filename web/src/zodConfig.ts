// Imported first by main.tsx, before any schema is built: zod's compiled parsers would probe
// `new Function`, which our CSP (script-src 'self', no 'unsafe-eval') refuses and reports as a
// violation. The interpreted parsers are fast enough for forms.
import { z } from 'zod';

z.config({ jitless: true });
