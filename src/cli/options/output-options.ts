import { Option } from '@commander-js/extra-typings';

/** `--force`: replace an existing output that is not this run's own. */
export const forceOption = (what: string) =>
  new Option('--force', `replace ${what} that exists and is not this run's own (default: refuse, exit 2)`);

/** `--file-mode <octal>`: mode of the files created (default 600, owner only; Windows applies no modes). */
export const fileModeOption = () =>
  new Option(
    '--file-mode <octal>',
    "mode of the files created, e.g. 640 (default 600, owner-only on Linux/macOS: they may hold personal data; Windows applies no modes, a file gets its folder's access rules)",
  );
