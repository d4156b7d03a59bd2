// `npm run build`: install when needed, generate code, build the web app.
import { buildWeb, generate, installDependencies } from './lib/bootstrap.mjs';

installDependencies();
generate();
buildWeb({ force: true });
