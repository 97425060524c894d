import { UsageError } from '../usage-error.js';

/** Parses `--file-mode`: three or four octal digits (e.g. 600, 0640), at most 0777. Undefined when not given. */
export function parseFileMode(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (!/^0?[0-7]{3}$/.test(trimmed))
    throw new UsageError(
      `--file-mode must be an octal mode such as 600 or 640, got ${JSON.stringify(value)}`,
    );
  return Number.parseInt(trimmed, 8);
}

/**
 * `--out /dev/stdout` (or `/dev/fd/1`) means standard output, as `-` does: written to the
 * process's stream in order, whatever stdout is (a pipe, a terminal, a file the shell opened),
 * instead of reopening it by path (which would start a `>>` file at offset 0).
 */
export function stdoutAlias(path: string | undefined): string | undefined {
  return path === '/dev/stdout' || path === '/dev/fd/1' ? '-' : path;
}
