import { type FileHandle, open } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { SvcError } from '../core/errors/svc-error.js';

/** Where an export writes: a file (positioned writes + fsync) or a stream. */
export interface ExportSink {
  /** Writes a chunk and makes it durable where the sink can (fsync for a file); the caller may reuse `chunk` afterwards. */
  append(chunk: Buffer): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the output file. A fresh export truncates it; a resumed one cuts it back to the
 * checkpointed size, dropping whatever a crash left after the last checkpoint.
 */
export async function openFileSink(path: string, resumeAtBytes: number | undefined): Promise<ExportSink> {
  let handle: FileHandle;
  if (resumeAtBytes === undefined) {
    handle = await open(path, 'w', 0o644);
  } else {
    try {
      handle = await open(path, 'r+');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new SvcError(
          `Cannot resume: the output ${path} is missing; delete the state file to start over`,
          'resume_failed',
        );
      }
      throw error;
    }
    const { size } = await handle.stat();
    if (size < resumeAtBytes) {
      await handle.close();
      throw new SvcError(
        `Cannot resume: ${path} holds ${size} bytes but the state file records ${resumeAtBytes}; delete the state file to start over`,
        'resume_failed',
      );
    }
    await handle.truncate(resumeAtBytes);
    await handle.sync();
  }
  let position = resumeAtBytes ?? 0;
  return {
    async append(chunk) {
      let done = 0;
      while (done < chunk.length) {
        const { bytesWritten } = await handle.write(chunk, done, chunk.length - done, position + done);
        done += bytesWritten;
      }
      position += chunk.length;
      await handle.datasync();
    },
    close: () => handle.close(),
  };
}

/** A stream output (e.g. stdout): waits for each chunk to be handed off; nothing to truncate. */
export function streamSink(stream: Writable): ExportSink {
  return {
    append: (chunk) =>
      new Promise<void>((resolve, reject) => {
        // A stream may hold on to the chunk after its callback (a PassThrough queues it as is): copy it.
        stream.write(Buffer.from(chunk), (error) => (error ? reject(error) : resolve()));
      }),
    close: async () => {},
  };
}
