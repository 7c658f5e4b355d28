/**
 * Freezes a value and everything it holds, for caches that hand the same object to every
 * caller: a caller that forgets to clone before editing fails loudly instead of corrupting
 * the cache.
 */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
