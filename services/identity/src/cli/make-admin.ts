// Process entry of `npm run make-admin -- <email>` (see make-admin.command.ts).
import { runMakeAdmin } from './make-admin.command.ts';

process.exitCode = await runMakeAdmin(process.argv.slice(2), process.env);
