// The container image's entry point (compiled to dist/checkpoint/checkpoint.mjs by
// `node scripts/build-services.mjs --target=checkpoint`): one argument chooses the process.
//   identity | class | assessment | generation | analytics   one service (its main.ts)
//   gateway                                                  the gateway
//   all-in-one                                               everything in one process (npm start)
//   migrate [service…]                                       every service's migrations, then exit
//   make-admin <email>                                       `npm run make-admin` (the chart's NOTES.txt)
//   create-district --name … --domain … --admin …           `npm run create-district` (the chart's NOTES.txt)
// Each command's code is a chunk of its own, loaded only when chosen.
import { exitOnSignalWhileStarting, exitOnStartupError } from '@checkpoint/service-kit';

// PID 1 in a container ignores a signal it has no handler for: until the command installs its own
// shutdown, SIGTERM ends it at once (migrate, make-admin, a service stuck starting).
exitOnSignalWhileStarting();

const COMMANDS: Record<string, (args: string[]) => Promise<unknown>> = {
  identity: () => import('../services/identity/src/main.ts'),
  class: () => import('../services/class/src/main.ts'),
  assessment: () => import('../services/assessment/src/main.ts'),
  generation: () => import('../services/generation/src/main.ts'),
  analytics: () => import('../services/analytics/src/main.ts'),
  gateway: () => import('../gateway/src/main.ts'),
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
    const { runMakeAdmin } = await import('../services/identity/src/cli/make-admin.command.ts');
    process.exit(await runMakeAdmin(args, process.env));
  },
  'create-district': async (args) => {
    const { runCreateDistrict } = await import('../services/identity/src/cli/create-district.command.ts');
    process.exit(await runCreateDistrict(args, process.env));
  },
};

const [command, ...args] = process.argv.slice(2);
const run = command === undefined ? undefined : COMMANDS[command];
if (!run) {
  console.error(
    `usage: checkpoint <command>\n  command: one of ${Object.keys(COMMANDS).join(', ')} (got ${command === undefined ? 'none' : `"${command}"`})`,
  );
  process.exit(2);
}
await run(args);
