/**
 * STORE_NAMESPACE keeps several apps apart on one EventStoreDB and one MongoDB (a stream-name
 * prefix `<namespace>:` and a database-name suffix `_<namespace>`). Its alphabet is safe in
 * both, cannot contain the `:` that ends the prefix (so no namespace's prefix is another's),
 * and has one case only (MongoDB refuses two database names that differ only by case).
 */
export function checkStoreNamespace(value: string): string {
  if (!/^[a-z0-9_]{0,32}$/.test(value))
    throw new Error(`STORE_NAMESPACE must be at most 32 lower-case letters, digits or _, got "${value}"`);
  return value;
}
