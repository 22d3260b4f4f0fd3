// Parsers for option and argument values the commands share: positive integers, comma-separated lists, repeatable options.
import { InvalidArgumentError } from 'commander';

const POSITIVE_INTEGER = /^[1-9]\d*$/;

/** `--limit 30` → 30; anything but a positive integer is a usage error (exit 2). */
export function positiveInteger(v: string): number {
  if (!POSITIVE_INTEGER.test(v)) throw new InvalidArgumentError('expected a positive integer');
  return Number(v);
}

/** A positive integer kept as the text it was given (an id that only goes into a URL). */
export function positiveIntegerText(v: string): string {
  if (!POSITIVE_INTEGER.test(v)) throw new InvalidArgumentError('expected a positive integer');
  return v;
}

/** `push, repository,,ping` → `['push', 'repository', 'ping']`. */
export const commaList = (v: string): string[] =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** A repeatable option (`-f a -f b`): each use adds its value. */
export const repeatable = (value: string, previous: string[] = []): string[] => [...previous, value];
