// Small checks for request bodies: each throws InvalidInput with a pointer to the value.
import { InvalidInput, parameter, pointer, type Path } from './errors.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID.test(v);

export function invalid(path: Path, detail: string): never {
  throw new InvalidInput(detail, pointer(path));
}

const where = (path: Path) => '/' + path.join('/');

export function object(value: unknown, path: Path): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) invalid(path, `'${where(path)}' must be an object.`);
  return value as Record<string, unknown>;
}

export function array(value: unknown, path: Path): unknown[] {
  if (!Array.isArray(value)) invalid(path, `'${where(path)}' must be an array.`);
  return value;
}

export function string(value: unknown, path: Path, options: { min?: number; max?: number } = {}): string {
  const { min = 0, max = Infinity } = options;
  if (typeof value !== 'string') invalid(path, `'${where(path)}' must be a string.`);
  if (value.length < min) invalid(path, min === 1 ? `'${where(path)}' must not be empty.` : `'${where(path)}' must have at least ${min} characters.`);
  if (value.length > max) invalid(path, `'${where(path)}' must be at most ${max} characters long.`);
  return value;
}

export function uuid(value: unknown, path: Path): string {
  if (!isUuid(value)) invalid(path, `'${where(path)}' must be a UUID.`);
  return value.toLowerCase();
}

/** Only the given keys may appear in an object. */
export function onlyKeys(obj: Record<string, unknown>, allowed: readonly string[], path: Path): void {
  for (const k of Object.keys(obj)) if (!allowed.includes(k)) invalid([...path, k], `Unknown property '${k}' in '${where(path)}'.`);
}

/** The `data` member of a JSON:API-style body. */
export function data(body: unknown): Record<string, unknown> {
  const root = object(body, []);
  if (!('data' in root)) invalid(['data'], "The body needs a 'data' object.");
  return object(root.data, ['data']);
}

/** A path parameter that must be a UUID (InvalidInput naming the parameter otherwise). */
export function uuidParam(value: string | undefined, name: string): string {
  if (!isUuid(value)) throw new InvalidInput(`Path parameter '${name}' must be a UUID.`, parameter(name));
  return value.toLowerCase();
}
