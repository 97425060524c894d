import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/openapi/document.js';

type Node = Record<string, unknown>;
const OPERATIONS = ['get', 'post', 'put', 'patch', 'delete'];

/** Every schema property, with its path, anywhere below `node`. */
function properties(node: unknown, path: string, out: Array<[string, Node]> = []): Array<[string, Node]> {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) properties(item, `${path}/${i}`, out);
  } else if (node && typeof node === 'object') {
    const props = (node as Node).properties;
    if (props && typeof props === 'object' && !Array.isArray(props)) {
      for (const [name, schema] of Object.entries(props as Record<string, Node>))
        out.push([`${path}/${name}`, schema]);
    }
    for (const [key, value] of Object.entries(node)) properties(value, `${path}/${key}`, out);
  }
  return out;
}

function operations(doc: Node): Array<[string, Node]> {
  return (['paths', 'webhooks'] as const).flatMap((section) =>
    Object.entries(doc[section] as Record<string, Node>).flatMap(([path, item]) =>
      OPERATIONS.filter((m) => item[m]).map((m) => [`${m} ${path}`, item[m] as Node] as [string, Node]),
    ),
  );
}

const undescribed = (items: Array<[string, Node]>) =>
  items.filter(([, n]) => typeof n.description !== 'string' || n.description.trim() === '').map(([p]) => p);

describe('every property, parameter, operation, response and tag carries a description', () => {
  const doc = buildOpenApiDocument() as Node;

  it('100 % of schema properties (components and inline)', () => {
    const all = properties(doc, '#');
    expect(all.length).toBeGreaterThan(170);
    expect(undescribed(all)).toEqual([]);
  });

  it('100 % of operations, their parameters, request bodies and responses', () => {
    const ops = operations(doc);
    expect(ops).toHaveLength(11);
    expect(undescribed(ops)).toEqual([]);
    const parameters = ops.flatMap(([name, op]) =>
      ((op.parameters as Node[] | undefined) ?? []).map((p) => [`${name} ${p.name}`, p] as [string, Node]),
    );
    expect(parameters.length).toBeGreaterThanOrEqual(9);
    expect(undescribed(parameters)).toEqual([]);
    const bodies = ops.flatMap(([name, op]) =>
      op.requestBody ? [[name, op.requestBody as Node] as [string, Node]] : [],
    );
    expect(undescribed(bodies)).toEqual([]);
    const responses = ops.flatMap(([name, op]) =>
      Object.entries(op.responses as Record<string, Node>).map(
        ([s, r]) => [`${name} ${s}`, r] as [string, Node],
      ),
    );
    expect(undescribed(responses)).toEqual([]);
  });

  it('100 % of tags, and every operation names a declared tag and an operationId', () => {
    const tags = (doc.tags as Node[]).map((t) => [String(t.name), t] as [string, Node]);
    expect(undescribed(tags)).toEqual([]);
    const names = new Set(tags.map(([n]) => n));
    for (const [name, op] of operations(doc)) {
      expect(op.operationId, name).toMatch(/^[a-zA-Z]+$/);
      expect(
        (op.tags as string[]).every((t) => names.has(t)),
        name,
      ).toBe(true);
    }
  });

  it('an undescribed property is found (the count above can fail)', () => {
    const broken = structuredClone(doc) as { components: { schemas: Record<string, Node> } };
    const problem = broken.components.schemas.Problem as { properties: Record<string, Node> };
    delete problem.properties.detail?.description;
    expect(undescribed(properties(broken, '#'))).toEqual(['#/components/schemas/Problem/detail']);
  });
});
