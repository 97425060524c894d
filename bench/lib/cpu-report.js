// Preloaded (`node --import`) into a measured child process by runNode({ cpu: true }): at exit it
// writes the process's own CPU time (process.cpuUsage(): user and system, every thread of this
// process, none of the server's) to the file named by SVC_BENCH_CPU_FILE. The variable is removed
// at once, so a process this one starts does not overwrite the figure.
import { writeFileSync } from 'node:fs';

const file = process.env.SVC_BENCH_CPU_FILE;
delete process.env.SVC_BENCH_CPU_FILE;
if (file) {
  process.once('exit', () => {
    const { user, system } = process.cpuUsage();
    writeFileSync(file, JSON.stringify({ userUs: user, systemUs: system }));
  });
}
