import type * as Typed from '@commander-js/extra-typings';
import * as commander from 'commander';

/**
 * commander's classes under the types of `@commander-js/extra-typings`, which infer every
 * command's arguments and options from its definition. That package re-exports these very classes
 * at run time; importing them from commander directly keeps it a build-time dependency.
 */
export const { Argument, Command, Option } = commander as unknown as typeof Typed;
