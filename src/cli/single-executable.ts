// The entry of the single executables (`npm run build:exe`, scripts/build-exe.js): the CLI bundled
// with its dependencies into one CommonJS file that Node runs from inside its own binary. No
// bin/svc.js there, so no shortcut of it: `--version` and `--help` come from the CLI itself.
import { main } from './main.js';

// Node keeps its `new Buffer()` deprecation (DEP0005) quiet for code inside node_modules; the
// bundle has no node_modules, so exceljs's zip reader (the `buffers` package) would print it on
// every workbook read, which `node bin/svc.js` never does. Every other warning still shows.
const emitWarning = process.emitWarning.bind(process);
process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
  const [type, code] = rest;
  const options = typeof type === 'object' && type !== null ? (type as { code?: string }) : undefined;
  if ((options?.code ?? code) === 'DEP0005') return;
  (emitWarning as (...args: unknown[]) => void)(warning, ...rest);
}) as typeof process.emitWarning;

void main();
