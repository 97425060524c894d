import { Argument, type Command } from '@commander-js/extra-typings';
import { COMPLETION_SHELLS, oneOf } from '../choices.js';
import { defineCommand } from '../command.js';

/** `svc completion bash|zsh|fish`: its handler (completion.ts) loads when it runs. */
export const completionCommand = defineCommand({
  path: 'completion',
  summary: 'print a shell completion script: bash, zsh or fish',
  configure: (command: Command) =>
    command
      .addArgument(
        new Argument('<shell>', 'the shell')
          .choices(COMPLETION_SHELLS)
          .argParser(oneOf(COMPLETION_SHELLS, (name) => `unknown shell '${name}': use bash, zsh or fish`)),
      )
      .addHelpText(
        'after',
        [
          '',
          'Load it:',
          '  bash  source <(svc completion bash)      (or save it in ~/.local/share/bash-completion/completions/svc)',
          '  zsh   source <(svc completion zsh)       (or save it as _svc in a directory of $fpath)',
          '  fish  svc completion fish | source       (or save it in ~/.config/fish/completions/svc.fish)',
        ].join('\n'),
      ),
  outputs: [],
  examples: ['source <(svc completion bash)', 'svc completion fish | source'],
  load: async () => (await import('../handlers/completion.js')).completion,
});
