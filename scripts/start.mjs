// `npm start`: everything in one process (all-in-one mode) on a fresh clone, nothing to install by hand.
import { spawn } from 'node:child_process';
import { bootstrap, root } from './lib/bootstrap.mjs';

bootstrap();
const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/all-in-one.ts'], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
