// The preview worker's entry (a worker thread started by preview-worker.ts, one per preview, with
// its own bounded heap). Two steps: read the upload given in workerData and answer the emails the
// plan needs; then, given the state read from the database, plan and answer the serialised plan.
import { parentPort, workerData } from 'node:worker_threads';
import { emailsOf, type ExistingState } from './plan.ts';
import { RosterPackageError } from './package.ts';
import { planAndSerialise, readUpload, type SerialisedPlan, type Upload } from './preview.ts';
import type { ValidatedRoster } from './validate.ts';

export interface PreviewWorkerData {
  upload: Upload;
  uploadLimitBytes: number;
  tenantId: string;
}

/** What the worker answers, in order: `read` (or `refused`), then `planned`. */
export type PreviewWorkerReply =
  | { kind: 'read'; emails: string[] }
  | { kind: 'refused'; field: string; message: string }
  | ({ kind: 'planned' } & SerialisedPlan);

/** What the worker is sent after `read`. */
export interface PlanRequest {
  state: ExistingState;
  callerId: string;
}

const port = parentPort;
if (!port) throw new Error('preview.worker.ts runs as a worker thread only');
const data = workerData as PreviewWorkerData;
const reply = (message: PreviewWorkerReply) => port.postMessage(message);

async function main(): Promise<void> {
  let validated: ValidatedRoster;
  try {
    validated = await readUpload(data.upload, data.uploadLimitBytes);
  } catch (err) {
    if (!(err instanceof RosterPackageError)) throw err;
    reply({ kind: 'refused', field: err.field, message: err.message });
    return;
  }
  // The upload itself is no longer needed: its memory goes back to the worker's heap.
  data.upload.bytes = new Uint8Array(0);
  reply({ kind: 'read', emails: emailsOf(validated, data.tenantId) });
  port!.once('message', (request: PlanRequest) => {
    reply({ kind: 'planned', ...planAndSerialise(validated, request.state, request.callerId) });
  });
}

await main();
