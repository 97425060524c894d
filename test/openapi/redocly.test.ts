import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildAdminOpenApiDocument } from '../../src/server/admin-openapi.js';
import { runTool, TOOLS, useDocumentFile } from '../helpers/openapi-tools.js';

const { dir, file } = useDocumentFile();
const adminFile = join(dir, 'admin-openapi.json');
writeFileSync(adminFile, JSON.stringify(buildAdminOpenApiDocument()), { mode: 0o600 });

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: Array<{ ruleId: string; severity: string; message: string; location?: unknown }>;
}

/** Redocly prints one JSON report per file, one after the other. */
function reports(stdout: string): LintReport[] {
  return stdout
    .slice(stdout.indexOf('{'))
    .split(/(?<=\})\s*(?=\{\s*"totals")/)
    .map((text) => JSON.parse(text) as LintReport);
}

describe('Redocly CLI lint with the recommended ruleset: 0 errors, 0 warnings', () => {
  it('lints the document of the four APIs and the admin document clean (one Redocly start)', async () => {
    const run = await runTool(
      TOOLS.redocly,
      ['lint', file, adminFile, '--extends', 'recommended', '--format', 'json'],
      { timeoutMs: 170_000 },
    );
    const all = reports(run.stdout);
    expect(all).toHaveLength(2);
    expect(all.flatMap((r) => r.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`))).toEqual([]);
    for (const report of all) expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(run.code).toBe(0);
  }, 180_000);

  it('reports a broken document (so the clean result above means something)', async () => {
    const broken = join(dir, 'broken.json');
    const doc = JSON.parse(JSON.stringify(buildAdminOpenApiDocument())) as {
      tags: Array<{ description?: string }>;
    };
    delete doc.tags[0]?.description;
    writeFileSync(broken, JSON.stringify(doc), { mode: 0o600 });
    const run = await runTool(
      TOOLS.redocly,
      ['lint', broken, '--extends', 'recommended', '--format', 'json'],
      {
        timeoutMs: 170_000,
      },
    );
    expect(reports(run.stdout)[0]?.problems.map((p) => p.ruleId)).toContain('tag-description');
  }, 180_000);
});
