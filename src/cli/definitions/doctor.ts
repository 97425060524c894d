import type { Command } from '@commander-js/extra-typings';
import type { Runner } from '../command.js';

/** `svc doctor`. */
export function defineDoctorCommand(program: Command, run: Runner): void {
  program
    .command('doctor')
    .description('per API: does the base URL answer, is the key accepted; where each setting came from')
    .action(run(async () => (await import('../commands/doctor.js')).doctor));
}
