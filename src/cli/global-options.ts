import { type Command, Option } from '@commander-js/extra-typings';
import { OUTPUT_FORMATS, parseOutputFormat } from './output-format.js';

/** Adds the global options of `svc` to the root command; they apply to every command. */
export function addGlobalOptions(program: Command) {
  return program
    .addOption(new Option('--base-url <url>', 'service base URL (env SVC_BASE_URL)'))
    .addOption(
      new Option('--api-key <key>', 'API key (env SVC_API_KEY; prefer env or `svc config set api-key`)'),
    )
    .addOption(new Option('--profile <name>', 'config profile (env SVC_PROFILE)'))
    .addOption(
      new Option('-o, --output <format>', 'output format (default: table on a TTY, json otherwise)')
        .choices(OUTPUT_FORMATS)
        .argParser((value) => parseOutputFormat(value)),
    )
    .addOption(
      new Option('--sandbox', 'run against an in-process reference server with demo data and no key'),
    )
    .addOption(new Option('--timeout <ms>', 'per-attempt timeout in milliseconds'))
    .addOption(new Option('--max-retries <n>', 'retries for calls that are safe to retry'))
    .addOption(
      new Option(
        '--proxy <url>',
        "HTTP proxy for every request, e.g. http://user:pass@proxy:3128; '' for none (env HTTPS_PROXY, HTTP_PROXY; NO_PROXY applies)",
      ),
    )
    .addOption(
      new Option('--ca-file <pem>', "PEM file of CA certificates trusted besides Node's (env SVC_CA_FILE)"),
    )
    .addOption(new Option('--debug', 'log HTTP exchanges (redacted) and stack traces on stderr'))
    .addOption(new Option('-q, --quiet', 'no progress or summaries on stderr'))
    .addOption(new Option('--no-color', 'plain output (also NO_COLOR)'));
}

/** Global flags as commander parsed them. */
export type GlobalFlags = ReturnType<ReturnType<typeof addGlobalOptions>['opts']>;
