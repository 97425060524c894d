import * as z from 'zod/mini';
import type { Route } from './router.js';

/** One route of the admin listing (`GET /__admin`), derived from the route table. */
export interface AdminRouteInfo {
  method: Route['method'];
  /** Path with `{name}` parameters, e.g. `/__admin/verifications/{verificationId}/finish`. */
  path: string;
  summary: string;
  /** Query parameters, in words. */
  query?: string;
  /** The body in one line, e.g. `{advanceMs: integer, frozen?: boolean} | {now: ...}`. */
  body?: string;
  /** JSON Schema (draft 2020-12) of the body, as the server checks it. */
  bodySchema?: unknown;
  example?: unknown;
  returns: string;
  /** A curl command that calls the route on `baseUrl`. */
  curl: string;
}

type Schema = {
  type?: string;
  format?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
};

/** One line for a JSON Schema: types, enums, `?` for optional members; objects below `depth` 2 as `object`. */
export function summarizeSchema(schema: Schema, depth = 0): string {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return alternatives.map((s) => summarizeSchema(s, depth)).join(' | ');
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join('|');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.type === 'array') {
    const item = schema.items ? summarizeSchema(schema.items, depth + 1) : 'any';
    return item.includes('|') ? `(${item})[]` : `${item}[]`;
  }
  if (schema.type === 'object' && schema.properties) {
    if (depth >= 2) return 'object';
    const required = new Set(schema.required ?? []);
    const members = Object.entries(schema.properties).map(
      ([name, member]) => `${name}${required.has(name) ? '' : '?'}: ${summarizeSchema(member, depth + 1)}`,
    );
    return `{${members.join(', ')}}`;
  }
  if (schema.type === 'string' && schema.format) return `string (${schema.format})`;
  return schema.type ?? 'any';
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The curl command of a documented route; every change sends JSON, as the server requires. */
function curlOf(route: Route, path: string, baseUrl: string): string {
  const example = route.doc?.example;
  const parts = ['curl'];
  if (route.method !== 'GET') parts.push(`-X ${route.method}`);
  parts.push(shellQuote(`${baseUrl}${path}`));
  if (route.method !== 'GET') parts.push(`-H 'content-type: application/json'`);
  if (route.method !== 'GET' && example !== undefined)
    parts.push(`-d ${shellQuote(JSON.stringify(example))}`);
  return parts.join(' ');
}

/** The path with `:name` written `{name}`. */
function displayPath(pattern: string): string {
  return pattern.replace(/:([A-Za-z]+)/g, '{$1}');
}

/**
 * The admin listing from the route table: every `/__admin` route (with `(undocumented)` when it
 * has no doc) and every other dev route (`/__...`) that has one, in table order.
 */
export function describeRoutes(routes: readonly Route[], baseUrl: string): AdminRouteInfo[] {
  return routes
    .filter((route) => route.pattern.startsWith('/__admin') || (route.pattern.startsWith('/__') && route.doc))
    .map((route) => {
      const path = displayPath(route.pattern);
      const doc = route.doc;
      const bodySchema = doc?.body
        ? z.toJSONSchema(doc.body, { io: 'input', unrepresentable: 'any' })
        : undefined;
      const examplePath = doc?.examplePath ?? path;
      return {
        method: route.method,
        path,
        summary: doc?.summary ?? '(undocumented)',
        ...(doc?.query !== undefined && { query: doc.query }),
        ...(bodySchema !== undefined && { body: summarizeSchema(bodySchema as Schema), bodySchema }),
        ...(doc?.example !== undefined && { example: doc.example }),
        returns: doc?.returns ?? '',
        curl: curlOf(route, examplePath, baseUrl),
      };
    });
}
