// Process entry of `npm run sso -- …` (see sso.command.ts).
import { runSsoCommand } from './sso.command.ts';

process.exitCode = await runSsoCommand(process.argv.slice(2), process.env);
