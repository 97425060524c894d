import { closeSync, fsyncSync, ftruncateSync, openSync, renameSync, statSync, writeSync } from 'node:fs';

/**
 * An append-only file whose writes are buffered and made durable on `checkpoint()`: after it
 * returns, every byte counted in `size` is on disk. Resuming truncates to a recorded size.
 */
export class DurableFile {
  private fd: number;
  private buffer: string[] = [];
  private bufferedBytes = 0;
  /** Bytes written and synced. */
  size: number;

  constructor(
    readonly path: string,
    truncateTo?: number,
  ) {
    if (truncateTo === undefined) {
      this.fd = openSync(path, 'w');
      this.size = 0;
    } else {
      this.fd = openSync(path, 'r+');
      const actual = statSync(path).size;
      if (actual < truncateTo)
        throw new Error(`${path} is shorter (${actual} bytes) than the saved state says (${truncateTo})`);
      ftruncateSync(this.fd, truncateTo);
      this.size = truncateTo;
    }
  }

  write(text: string): void {
    this.buffer.push(text);
    this.bufferedBytes += text.length;
    if (this.bufferedBytes > 1 << 20) this.flush();
  }

  private flush(): void {
    if (this.buffer.length === 0) return;
    const data = Buffer.from(this.buffer.join(''), 'utf8');
    this.buffer = [];
    this.bufferedBytes = 0;
    let offset = 0;
    while (offset < data.length)
      offset += writeSync(this.fd, data, offset, data.length - offset, this.size + offset);
    this.size += data.length;
  }

  /** Writes what is buffered and fsyncs. */
  checkpoint(): void {
    this.flush();
    fsyncSync(this.fd);
  }

  close(): void {
    this.checkpoint();
    closeSync(this.fd);
  }
}

/** Replaces `path` atomically: write a temporary file, fsync, rename over. */
export function writeFileAtomic(path: string, text: string): void {
  const tmp = `${path}.tmp-${process.pid}`;
  const fd = openSync(tmp, 'w', 0o600);
  writeSync(fd, text);
  fsyncSync(fd);
  closeSync(fd);
  renameSync(tmp, path);
}
