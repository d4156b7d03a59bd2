// The container image's entry point (compiled to dist/checkpoint/checkpoint.mjs by
// `node scripts/build-services.mjs --target=checkpoint`): one argument chooses the process.
//   <service>                                                one service (packages/service-registry/services.js)
//   gateway                                                  the gateway
//   all-in-one                                               everything in one process (npm start)
//   migrate [service…]                                       every service's migrations, then exit
//   make-admin <email>                                       `npm run make-admin` (the chart's NOTES.txt)
//   create-district --name … --domain … --admin …           `npm run create-district` (the chart's NOTES.txt)
//   delete-district <district> "<name>"                      `npm run delete-district`
//   sso set|show|remove|password-sign-in …                   `npm run sso`
//   standards import <file|url>                              `npm run standards` (a platform CASE framework)
//   lti list|add|remove|link --district <id> …               `npm run lti` (a district's LTI registrations)
//   --help                                                   this list (exit 0)
// The image puts it on PATH as `checkpoint`. Each command's code is a chunk of its own, loaded only
// when chosen; each operator command answers --help.
import { exitOnSignalWhileStarting, exitOnStartupError } from '@checkpoint/service-kit';
import { SERVICE_NAMES, type ServiceName } from '@checkpoint/service-registry';

// PID 1 in a container ignores a signal it has no handler for: until the command installs its own
// shutdown, SIGTERM ends it at once (migrate, make-admin, a service stuck starting).
exitOnSignalWhileStarting();

/**
 * Each service of packages/service-registry/services.js (a missing one is a type error). Written
 * out so that the bundler makes each main.ts a chunk of its own.
 */
const SERVICE_MAINS: Record<ServiceName, () => Promise<unknown>> = {
  identity: () => import('../../services/identity/src/main.ts'),
  class: () => import('../../services/class/src/main.ts'),
  assessment: () => import('../../services/assessment/src/main.ts'),
  generation: () => import('../../services/generation/src/main.ts'),
  analytics: () => import('../../services/analytics/src/main.ts'),
  integrations: () => import('../../services/integrations/src/main.ts'),
};

const COMMANDS: Record<string, (args: string[]) => Promise<unknown>> = {
  ...SERVICE_MAINS,
  gateway: () => import('../../gateway/src/main.ts'),
  'all-in-one': () => import('./all-in-one.ts'),
  migrate: async (args) => {
    const { migrate } = await import('./migrate.ts');
    try {
      await migrate(args);
    } catch (err) {
      exitOnStartupError('migrate', err);
    }
    process.exit(0);
  },
  'make-admin': async (args) => {
    const { runMakeAdmin } = await import('../../services/identity/src/cli/make-admin.command.ts');
    process.exit(await runMakeAdmin(args, process.env));
  },
  'create-district': async (args) => {
    const { runCreateDistrict } = await import('../../services/identity/src/cli/create-district.command.ts');
    process.exit(await runCreateDistrict(args, process.env));
  },
  'delete-district': async (args) => {
    const { runDeleteDistrict } = await import('../../services/identity/src/cli/delete-district.command.ts');
    process.exit(await runDeleteDistrict(args, process.env));
  },
  sso: async (args) => {
    const { runSsoCommand } = await import('../../services/identity/src/cli/sso.command.ts');
    process.exit(await runSsoCommand(args, process.env));
  },
  standards: async (args) => {
    const { runStandardsCommand } = await import('../../services/assessment/src/cli/standards.command.ts');
    process.exit(await runStandardsCommand(args, process.env));
  },
  lti: async (args) => {
    const { runLtiCommand } = await import('../../services/integrations/src/cli/lti.command.ts');
    process.exit(await runLtiCommand(args, process.env));
  },
};

const USAGE = `usage: checkpoint <command> [arguments]
  processes:  ${SERVICE_NAMES.join(', ')}, gateway, all-in-one
  operators:  migrate [service…], make-admin <email>, create-district --name … --domain … --admin …,
              delete-district <district> "<name>", sso set|show|remove|password-sign-in …,
              standards import <file|url>, lti list|add|remove|link --district <id> …
  checkpoint <operator command> --help: that command's own help`;

const [command, ...args] = process.argv.slice(2);
if (command === '--help' || command === '-h' || command === 'help') {
  console.log(USAGE);
  process.exit(0);
}
const run = command === undefined ? undefined : COMMANDS[command];
if (!run) {
  console.error(`${USAGE}\n(got ${command === undefined ? 'no command' : `"${command}"`})`);
  process.exit(2);
}
await run(args);
