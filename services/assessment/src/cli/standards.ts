// Process entry of `npm run standards -- import <file|url>` (see standards.command.ts).
import { runStandardsCommand } from './standards.command.ts';

process.exitCode = await runStandardsCommand(process.argv.slice(2), process.env);
