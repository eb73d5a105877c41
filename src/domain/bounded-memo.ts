/**
 * `compute`, remembered for up to `max` keys (all forgotten at once when full: a flood of distinct
 * keys costs a compute each, never memory). For what is asked on every request about values
 * clients repeat (a Host header, a request target, a query string). An undefined result (or a
 * throw) is not kept, nor
 * is the answer for a key `keep` refuses (a long one).
 */
export function boundedMemo<K, V>(
  max: number,
  compute: (key: K) => V,
  keep: (key: K) => boolean = () => true,
): (key: K) => V {
  const memo = new Map<K, V>()
  return (key) => {
    let value = memo.get(key)
    if (value === undefined) {
      value = compute(key)
      if (value !== undefined && keep(key)) {
        if (memo.size >= max) memo.clear()
        memo.set(key, value)
      }
    }
    return value
  }
}
