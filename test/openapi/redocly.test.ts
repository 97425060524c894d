import { describe, expect, it } from 'vitest';
import { runTool, TOOLS, useDocumentFile } from '../helpers/openapi-tools.js';

const { file } = useDocumentFile();

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: Array<{ ruleId: string; severity: string; message: string }>;
}

describe('Redocly CLI lint with the recommended ruleset: 0 errors, 0 warnings', () => {
  it('lints the generated document clean', async () => {
    const run = await runTool(TOOLS.redocly, ['lint', file, '--extends', 'recommended', '--format', 'json'], {
      timeoutMs: 170_000,
    });
    const report = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as LintReport;
    expect(report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(run.code).toBe(0);
  }, 180_000);
});
