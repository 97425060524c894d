import type { Command } from 'commander';
import type { Runner } from '../program.js';

/** `svc completion bash|zsh|fish`. */
export function defineCompletionCommand(program: Command, run: Runner): void {
  program
    .command('completion')
    .description('print a shell completion script: bash, zsh or fish')
    .argument('<shell>', 'bash | zsh | fish')
    .addHelpText(
      'after',
      [
        '',
        'Load it:',
        '  bash  source <(svc completion bash)      (or save it in ~/.local/share/bash-completion/completions/svc)',
        '  zsh   source <(svc completion zsh)       (or save it as _svc in a directory of $fpath)',
        '  fish  svc completion fish | source       (or save it in ~/.config/fish/completions/svc.fish)',
      ].join('\n'),
    )
    .action(run(async () => (await import('../commands/completion.js')).completion));
}
