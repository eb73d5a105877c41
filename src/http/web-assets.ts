/**
 * Where the web inbox's files come from at runtime: dist/web/assets.js, the module that
 * scripts/build-web.mjs generates (strings, no file reads). Imported lazily, through a specifier
 * no bundler follows, so a browser bundle of the handlers (setupWorker) never pulls it in or
 * touches node:fs; there the inbox is simply absent (the standalone server serves it).
 * The bundled CLI (dist/bin/sendbox.cjs) replaces this module with one importing the same file
 * through its loader (scripts/bundle.mjs, plugin `web-assets`).
 */

/** One file of the inbox. */
export interface WebAsset {
  type: string
  etag: string
  body: string
}

export type WebAssets = Record<string, WebAsset>

// From dist/src/http/ (the compiled library) or src/http/ (sources run by tsx/vitest).
const CANDIDATES = ['../../web/assets.js', '../../dist/web/assets.js']

/** The generated module, or undefined when there is none (not built, or not on Node). */
export async function importWebAssets(): Promise<WebAssets | undefined> {
  if (typeof process === 'undefined' || !process.versions?.node) return undefined
  for (const candidate of CANDIDATES) {
    const href = new URL(candidate, import.meta.url).href
    try {
      const module = (await import(/* @vite-ignore */ /* webpackIgnore: true */ href)) as { assets: WebAssets }
      return module.assets
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error
    }
  }
  return undefined
}
