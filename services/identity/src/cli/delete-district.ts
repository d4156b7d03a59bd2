// Process entry of `npm run delete-district -- <district> "<name>"` (see delete-district.command.ts).
import { runDeleteDistrict } from './delete-district.command.ts';

process.exitCode = await runDeleteDistrict(process.argv.slice(2), process.env);
