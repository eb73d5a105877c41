import { ApiError } from '../src/domain/errors.js'

/** Reads `page` and `limit` the contract's way: digits only, page ≥ 1, 1 ≤ limit ≤ 100, never clamped. */
export function pageQuery(url: URL): { page: number; limit: number } {
  return {
    page: wholeNumber(url, 'page', 1, 1, Number.MAX_SAFE_INTEGER),
    limit: wholeNumber(url, 'limit', 20, 1, 100),
  }
}

function wholeNumber(url: URL, name: string, fallback: number, min: number, max: number): number {
  const raw = url.searchParams.get(name)
  if (raw === null) return fallback
  const value = /^[0-9]+$/.test(raw) ? Number(raw) : NaN
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `a whole number of at least ${min}` : `a whole number from ${min} to ${max}`
    throw new ApiError(400, 'invalid_parameter', `Query parameter \`${name}\` must be ${range} (got "${raw.slice(0, 50)}").`, name)
  }
  return value
}
