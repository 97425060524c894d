interface CommandLike {
  name(): string;
  parent: CommandLike | null;
}

const isCommand = (value: unknown): value is CommandLike =>
  typeof value === 'object' && value !== null && typeof (value as CommandLike).name === 'function';

/**
 * The path of a command as the contract names it (`audit list`), from what commander passes to an
 * action last (the command itself); undefined for anything else.
 */
export function commandPath(command: unknown): string | undefined {
  const names: string[] = [];
  for (let at = isCommand(command) ? command : null; at?.parent; at = at.parent) names.unshift(at.name());
  return names.length ? names.join(' ') : undefined;
}
