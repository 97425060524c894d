import { execFileSync } from 'node:child_process';

/**
 * Starts the prefix's wineserver for good (`-p`), before its first program. By default it exits 3 s
 * after its last program, and the next program starts it again with Wine's services
 * (services.exe, winedevice.exe, plugplay.exe...), started from that program with its stderr: a crash of
 * one of them then lands in the output of an svc run that itself went well ("wine: Unhandled page
 * fault ... starting debugger..." before svc's summary, seen on a loaded CI machine). Kept up, the
 * services start once, under `winecfg` with its output ignored; `wineserver -k` ends it after the
 * file's tests.
 */
export function keepWineServer(env: Record<string, string | undefined>): void {
  execFileSync('wineserver', ['-p'], { env, stdio: 'ignore' });
}
