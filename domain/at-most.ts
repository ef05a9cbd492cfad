/**
 * `run` over `items`, at most `limit` at a time, each started as soon as one before it ends; the results
 * in the items' order. Pure (promises only): workflows use it as well as processes.
 */
export async function atMost<T, R>(limit: number, items: readonly T[], run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await run(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
