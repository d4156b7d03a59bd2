// Runs a roster preview's CPU-heavy part (unzip, parse, validate, plan, serialise) in a worker
// thread (preview.worker.ts), so that the service's event loop keeps answering meanwhile (finding 8
// of #26). One worker per preview with its own bounded heap: a roster that needs more memory ends
// that worker only, and the admin is told so. At most PREVIEW_WORKERS run at once per process;
// a few more previews wait their turn, beyond that the upload is refused (429) until one ends.
import { Worker } from 'node:worker_threads';
import { AppError } from '@checkpoint/service-kit';
import type { Logger } from '@checkpoint/service-kit';
import type { ExistingState } from './plan.ts';
import type { SerialisedPlan, Upload } from './preview.ts';
import type { PlanRequest, PreviewWorkerData, PreviewWorkerReply } from './preview.worker.ts';

/** Previews planned at once per process: each may use a whole core and up to its heap limit. */
export const PREVIEW_WORKERS = 1;
/** Previews that may wait for a worker; the next upload is refused until one ends. */
export const PREVIEW_QUEUE = 4;

/**
 * Set by scripts/build-services.mjs in the compiled bundle, whose preview worker is its own file
 * beside the bundle (roster-preview.worker.mjs); from the TypeScript sources (tests, tsx) the
 * worker runs its source through tsx.
 */
declare const __CHECKPOINT_BUNDLED__: boolean | undefined;

/** The worker: its compiled file, or a bootstrap that loads its TypeScript source through tsx. */
function workerScript(): { script: URL | string; eval: boolean } {
  if (typeof __CHECKPOINT_BUNDLED__ !== 'undefined' && __CHECKPOINT_BUNDLED__)
    return { script: new URL(import.meta.resolve('./roster-preview.worker.mjs')), eval: false };
  // tsx is a dev dependency: never resolved in the bundle (nor traced into the image).
  const tsx = import.meta.resolve('tsx/esm/api');
  const source = new URL('./preview.worker.ts', import.meta.url).href;
  return {
    script: `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(source)}); });`,
    eval: true,
  };
}

export interface PreviewWorkerOptions {
  /** Largest upload accepted (the zip's inflated size is held to ten times it). */
  uploadLimitBytes: number;
  /** The worker's heap (old generation) limit, in MiB. */
  memoryMb: number;
  logger: Logger;
}

export interface PreviewInput {
  upload: Upload;
  tenantId: string;
  callerId: string;
  /** Reads what the plan needs from the database, given the emails of the file (on this thread). */
  loadState: (emails: string[]) => Promise<ExistingState>;
}

export function previewWorkers(options: PreviewWorkerOptions) {
  let active = 0;
  const waiting: (() => void)[] = [];

  async function slot(): Promise<() => void> {
    if (active >= PREVIEW_WORKERS) {
      if (waiting.length >= PREVIEW_QUEUE)
        throw new AppError(
          'too_many',
          'roster_previews_busy',
          `${PREVIEW_WORKERS + PREVIEW_QUEUE} roster previews are already under way; upload again when one has finished`,
        );
      await new Promise<void>((resolve) => waiting.push(resolve));
    } else active++;
    return () => {
      const next = waiting.shift();
      if (next) next();
      else active--;
    };
  }

  function run(input: PreviewInput): Promise<SerialisedPlan> {
    const script = workerScript();
    const data: PreviewWorkerData = {
      upload: input.upload,
      uploadLimitBytes: options.uploadLimitBytes,
      tenantId: input.tenantId,
    };
    const worker = new Worker(script.script, {
      eval: script.eval,
      workerData: data,
      resourceLimits: { maxOldGenerationSizeMb: options.memoryMb, maxYoungGenerationSizeMb: 16 },
    });
    return new Promise<SerialisedPlan>((resolve, reject) => {
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        outcome();
        void worker.terminate();
      };
      worker.on('message', (reply: PreviewWorkerReply) => {
        if (reply.kind === 'refused')
          settle(() =>
            reject(new AppError('invalid', 'invalid_roster', reply.message, { [reply.field]: reply.message })),
          );
        else if (reply.kind === 'read')
          input.loadState(reply.emails).then(
            (state) => worker.postMessage({ state, callerId: input.callerId } satisfies PlanRequest),
            (err: unknown) => settle(() => reject(err)),
          );
        else {
          const { kind: _kind, ...plan } = reply;
          settle(() => resolve(plan));
        }
      });
      worker.on('error', (err: Error & { code?: string }) => settle(() => reject(workerFailure(err))));
      worker.on('exit', (code) =>
        settle(() => reject(workerFailure(new Error(`the preview worker stopped (exit code ${code})`)))),
      );
    });
  }

  function workerFailure(err: Error & { code?: string }): AppError {
    if (err.code === 'ERR_WORKER_OUT_OF_MEMORY')
      return new AppError(
        'too_large',
        'roster_too_large',
        `The roster needs more memory to preview than the service allows (limit: ${options.memoryMb} MiB of preview memory); split it into smaller files`,
      );
    options.logger.error({ err }, 'roster preview worker failed');
    return new AppError(
      'unprocessable',
      'roster_unreadable',
      'The roster could not be read: the preview stopped on an unexpected error; check the files, or split them',
    );
  }

  return {
    /** Reads, validates and plans an upload in a worker; the plan comes back as JSON text. */
    async preview(input: PreviewInput): Promise<SerialisedPlan> {
      const release = await slot();
      try {
        return await run(input);
      } finally {
        release();
      }
    },
  };
}

export type PreviewWorkers = ReturnType<typeof previewWorkers>;
