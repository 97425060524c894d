/**
 * The `run: |` blocks of a GitHub Actions workflow, in order, with the name of their step and whether
 * it runs `if: always()` (a small parser for the subset of YAML the examples use), so a test can run
 * the steps as written.
 */
export function runBlocks(yml: string): Array<{ name: string; script: string; always: boolean }> {
  const lines = yml.split('\n');
  const blocks: Array<{ name: string; script: string; always: boolean }> = [];
  let name = '';
  let always = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const step = /^\s+- (?:name: (.*)|uses: .*|run: .*)$/.exec(line);
    if (step) {
      name = step[1] ?? '';
      always = false;
    }
    if (/^\s+if: always\(\)$/.test(line)) always = true;
    const block = /^(\s+)run: \|$/.exec(line);
    if (!block) continue;
    const indent = (block[1] as string).length;
    const body: string[] = [];
    for (i += 1; i < lines.length; i++) {
      const next = lines[i] as string;
      if (next.trim() !== '' && next.length - next.trimStart().length <= indent) break;
      body.push(next.slice(indent + 2));
    }
    i -= 1;
    blocks.push({ name, script: `${body.join('\n').trimEnd()}\n`, always });
  }
  return blocks;
}
