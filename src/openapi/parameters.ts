import * as z from 'zod/mini';

/** An OpenAPI parameter object of a query parameter. */
export interface QueryParameter {
  name: string;
  in: 'query';
  required: boolean;
  description?: string;
  schema: Record<string, unknown>;
}

/**
 * The query parameters of an object schema, one per property, in the schema's order: type,
 * limits and default from its input JSON Schema, the description from its `meta`.
 */
export function queryParameters(schema: z.ZodMiniObject): QueryParameter[] {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: 'query',
      required: json.required?.includes(name) ?? false,
      ...(typeof description === 'string' && { description }),
      schema: rest,
    };
  });
}
