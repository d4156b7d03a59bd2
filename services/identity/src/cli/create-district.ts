// Process entry of `npm run create-district -- --name … --domain … --admin …` (see create-district.command.ts).
import { runCreateDistrict } from './create-district.command.ts';

process.exitCode = await runCreateDistrict(process.argv.slice(2), process.env);
