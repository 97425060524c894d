import type { Writable } from 'node:stream';
import type { CsvStyle } from '../core/csv-line.js';
import { redact } from '../core/redact.js';
import { printData } from './output.js';
import type { TableView } from './output-format.js';
import type { Settings } from './settings.js';
import { writeHumanLine } from './terminal-safe.js';

/**
 * What a command writes: data on stdout in the chosen format, human lines on stdout and stderr.
 * Every human line goes through {@link writeHumanLine}, so a string from an archive, a response
 * or a file cannot drive the terminal; lines on stderr are redacted with the run's keys.
 */
export class CommandOutput {
  private readonly stdout: Writable;
  private readonly stderr: Writable;
  private readonly settings: Settings;
  private csvStyle: CsvStyle | undefined;

  constructor(streams: { stdout: Writable; stderr: Writable }, settings: Settings) {
    this.stdout = streams.stdout;
    this.stderr = streams.stderr;
    this.settings = settings;
  }

  /** Sets the delimiter and BOM of CSV output (the command's `--delimiter` and `--bom`, csv-options.ts). */
  useCsvStyle(style: CsvStyle | undefined): void {
    this.csvStyle = style;
  }

  /** The delimiter and BOM of CSV output, for a command that streams its CSV itself; undefined: `,` without a BOM. */
  get csv(): CsvStyle | undefined {
    return this.csvStyle;
  }

  /** Prints data to stdout in the chosen format. */
  print(data: unknown, view: () => TableView): Promise<void> {
    const { format, color, tableWidth: width } = this.settings;
    return printData(this.stdout, format, data, view, { color, width, csv: this.csvStyle });
  }

  /**
   * A human line on stdout (a verdict, a problem, a head, a token for `$(...)`), escaped. Not
   * redacted: stdout carries what was asked for (a token may contain `ak_`). Data formats use
   * {@link data} instead.
   */
  line(text: string): void {
    writeHumanLine(this.stdout, text);
  }

  /**
   * Data on stdout written exactly as given (JSON built with `jsonForTerminal`, NDJSON, a script):
   * the bytes a program reads. Waits for the stream to drain when it is full.
   */
  async data(text: string): Promise<void> {
    if (!this.stdout.write(text)) await new Promise((resolve) => this.stdout.once('drain', resolve));
  }

  /** Bytes on stdout written as they are (archived lines); waits for the stream to drain when it is full. */
  async bytes(data: Uint8Array): Promise<void> {
    if (!this.stdout.write(data)) await new Promise((resolve) => this.stdout.once('drain', resolve));
  }

  /** stdout as a stream, for a command that streams data (CSV, NDJSON) through a writer of its own. */
  get dataOut(): Writable {
    return this.stdout;
  }

  /** A line on stderr unless `--quiet`, redacted and escaped. */
  info(line: string): void {
    if (!this.settings.quiet) this.stderrLine(line);
  }

  /** A line on stderr shown even with `--quiet` (what a running command listens on), redacted and escaped. */
  notice(line: string): void {
    this.stderrLine(line);
  }

  /** A warning on stderr (shown even with `--quiet`), redacted and escaped. */
  warn(line: string): void {
    this.stderrLine(`warning: ${line}`);
  }

  /** A `--debug` line on stderr, redacted (also of `moreSecrets`, e.g. the sandbox key) and escaped. */
  debug(line: string, moreSecrets: readonly string[] = []): void {
    if (!this.settings.debug) return;
    writeHumanLine(this.stderr, `[debug] ${redact(line, [...this.settings.secrets, ...moreSecrets])}`);
  }

  private stderrLine(line: string): void {
    writeHumanLine(this.stderr, redact(line, this.settings.secrets));
  }
}
