import { type BulkAnswer, illegalArgument, requestError } from './bulk-answers.js';

/** One `create` or `index` action of a bulk body, with its source line as sent. */
export interface BulkOp {
  action: 'create' | 'index';
  index: string;
  id: string | undefined;
  source: string;
}

/**
 * Splits a bulk body into its actions, or answers the error Elasticsearch gives for the whole
 * request: no final newline, a malformed action line, or validation failures (an action without an
 * index, from its line or the path, or without a source line), all of them numbered in one reason.
 */
export function parseBulk(text: string, pathIndex: string | undefined): BulkOp[] | BulkAnswer {
  if (!text.endsWith('\n')) return illegalArgument('The bulk request must be terminated by a newline [\\n]');
  const lines = text.split('\n');
  lines.pop();
  const ops: BulkOp[] = [];
  const invalid: string[] = [];
  for (let i = 0; i < lines.length; i += 2) {
    const line = lines[i] as string;
    // A blank line where an action belongs is skipped, as Elasticsearch does.
    if (line.trim() === '') {
      i -= 1;
      continue;
    }
    let action: unknown;
    try {
      action = JSON.parse(line);
    } catch {
      action = undefined;
    }
    if (typeof action !== 'object' || action === null || Array.isArray(action))
      return illegalArgument(`Malformed action/metadata line [${i + 1}], expected START_OBJECT`);
    const [name, ...more] = Object.keys(action);
    const meta = (action as Record<string, unknown>)[name ?? ''];
    if (name !== 'create' && name !== 'index') {
      if (name === 'delete' || name === 'update')
        return illegalArgument(`the bulk stand-in answers create and index actions only, not [${name}]`);
      return illegalArgument(
        `Malformed action/metadata line [${i + 1}], expected field [create], [delete], [index] or [update] but found [${name}]`,
      );
    }
    if (more.length > 0 || typeof meta !== 'object' || meta === null)
      return illegalArgument(
        `Malformed action/metadata line [${i + 1}], expected END_OBJECT but found [FIELD_NAME]`,
      );
    const { _index, _id } = meta as { _index?: unknown; _id?: unknown };
    const index = typeof _index === 'string' ? _index : pathIndex;
    const source = lines[i + 1];
    if (index === undefined) invalid.push('index is missing');
    if (source === undefined) invalid.push('source is missing');
    if (index !== undefined && source !== undefined)
      ops.push({ action: name, index, id: _id === undefined ? undefined : String(_id), source });
  }
  if (invalid.length > 0 || ops.length === 0) {
    const reasons = invalid.length > 0 ? invalid : ['no requests added'];
    return requestError(400, {
      type: 'action_request_validation_exception',
      reason: `Validation Failed: ${reasons.map((reason, n) => `${n + 1}: ${reason};`).join('')}`,
    });
  }
  return ops;
}
