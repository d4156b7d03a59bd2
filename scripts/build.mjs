// `npm run build`: install when needed, generate code, build the web app and the compiled services.
import { buildServices, buildWeb, generate, installDependencies } from './lib/bootstrap.mjs';

installDependencies();
generate();
buildWeb({ force: true });
buildServices({ force: true });
