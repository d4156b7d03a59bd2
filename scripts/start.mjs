// `npm start`: everything in one process (all-in-one mode) on a fresh clone, nothing to install by hand.
// Bootstraps (npm ci, code generation, the web build and the services' build, each when needed),
// then runs the compiled all-in-one (scripts/build-services.mjs) in this very process: no tsx, and
// no second Node process waiting on it.
//   --no-bootstrap: only rebuild the services when stale (a checkout already installed and generated).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { bootstrap, buildServices, root } from './lib/bootstrap.mjs';

if (process.argv.includes('--no-bootstrap')) buildServices();
else bootstrap();
await import(pathToFileURL(path.join(root, 'dist/all-in-one/all-in-one.mjs')).href);
