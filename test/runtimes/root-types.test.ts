import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../helpers/build.js';

// The root entry's declarations, as a Workers project (lib dom, no @types/node) and a Node project
// see them: Node's streams and key objects are described by shape (src/core/node-shapes.ts).

beforeAll(() => ensureBuilt(), 600_000);

/** Type-checks `source` as a consumer project of the built package; returns tsc's output ('' when it compiles). */
function typeCheck(source: string, types: string[]): string {
  const project = mkdtempSync(join(tmpdir(), 'svc-root-types-'));
  try {
    mkdirSync(join(project, 'node_modules', '@types'), { recursive: true });
    symlinkSync(ROOT, join(project, 'node_modules', 'svc-sdk'), 'dir');
    symlinkSync(
      join(ROOT, 'node_modules', '@types', 'node'),
      join(project, 'node_modules', '@types', 'node'),
      'dir',
    );
    writeFileSync(join(project, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    const compilerOptions = {
      target: 'es2022',
      lib: ['es2022', 'dom'],
      types,
      module: 'nodenext',
      moduleResolution: 'nodenext',
      strict: true,
      noEmit: true,
      skipLibCheck: false,
    };
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['app.ts'] }));
    writeFileSync(join(project, 'app.ts'), source);
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    try {
      execFileSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8', stdio: 'pipe' });
      return '';
    } catch (error) {
      return String((error as { stdout?: string }).stdout ?? error);
    }
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

describe('the root entry types compile with lib ["es2022", "dom"] and no @types/node', () => {
  it('a Worker using SvcClient, verify, audit and tax options type-checks (skipLibCheck off)', () => {
    const worker = [
      "import { type BatchRowResult, SvcClient, verify } from 'svc-sdk';",
      "const client = new SvcClient({ baseUrl: 'https://api.example', apiKey: 'ak_x' });",
      'export async function handle(request: Request): Promise<Response> {',
      "  const check = await verify(client, request.headers.get('x-token') ?? '');",
      '  for await (const event of client.audit.events({ pageSize: 100 })) void event.id;',
      '  const rows: BatchRowResult[] = [];',
      "  for await (const row of client.tax.runBatch([{ countryCode: 'DE', rawValue: '136695976' }])) rows.push(row);",
      '  return Response.json({ d: check.decision, rows: rows.length });',
      '}',
    ].join('\n');
    expect(typeCheck(worker, [])).toBe('');
    // The check can fail: a Node-only name does not compile in the same project.
    expect(typeCheck("export const b: Buffer = Buffer.from('x');\n", [])).toMatch(/Buffer/);
  }, 180_000);

  it("a Node app still passes Node's streams and KeyObjects where the options take them, svc-sdk/node included", () => {
    const node = [
      "import { createReadStream, createWriteStream } from 'node:fs';",
      "import { generateKeyPairSync } from 'node:crypto';",
      "import { PassThrough } from 'node:stream';",
      "import { SvcClient } from 'svc-sdk';",
      "import { exportAuditEvents, runBatchFile, syncAuditArchive, verifyAuditArchive, type WebhookDelivery } from 'svc-sdk/node';",
      "const client = new SvcClient({ baseUrl: 'https://api.example', apiKey: 'ak_x' });",
      "const { privateKey, publicKey } = generateKeyPairSync('ed25519');",
      'export async function run(): Promise<void> {',
      "  await runBatchFile(client.tax, { input: { path: createReadStream('in.csv') }, output: { path: process.stdout } });",
      "  await runBatchFile(client.tax, { input: { path: process.stdin }, output: { path: createWriteStream('out.ndjson') } });",
      '  await exportAuditEvents(client.audit, { output: new PassThrough() });',
      "  await syncAuditArchive(client.audit, { dir: 'archive', signKey: privateKey });",
      "  await verifyAuditArchive('archive', { publicKey });",
      '  const bytes = (d: WebhookDelivery): Uint8Array => d.bytes;',
      '  void bytes;',
      '}',
    ].join('\n');
    expect(typeCheck(node, ['node'])).toBe('');
  }, 180_000);
});
