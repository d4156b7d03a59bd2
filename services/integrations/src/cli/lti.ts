// Process entry of `npm run lti -- …` (see lti.command.ts).
import { runLtiCommand } from './lti.command.ts';

process.exitCode = await runLtiCommand(process.argv.slice(2), process.env);
