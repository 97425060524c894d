import { compile } from 'zod/mini';
import type { SchemaCompiler } from '../core/schema-compiler.js';

/**
 * zod's documented `compile`, as the CLI provides it (src/cli/load-client.ts): imported when a
 * batch starts, not when the CLI loads.
 */
export const compileSchema: SchemaCompiler = (schema) => compile(schema);
