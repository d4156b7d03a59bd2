// `npm run stack` / `make stack`: separate processes with real Kafka (see stack.ts).
import { spawn } from 'node:child_process';
import { bootstrap, root } from './lib/bootstrap.mjs';

bootstrap();
const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/stack.ts'], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 1));
