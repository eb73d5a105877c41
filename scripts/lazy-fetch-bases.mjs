/**
 * An esbuild plugin for the CLI bundle: the classes of bundled dependencies that extend a global
 * of node's Fetch at their module's top level get a stand-in base, which puts the real class under
 * itself when the first instance is made. Those globals are undici (`Response` on Node 20, 22 and
 * 24; `MessageEvent` on 22 and 24), which node loads on first use: reading one while the bundle is
 * evaluated cost ~30 ms of every start, and the standalone server's API never needs it
 * (docs/decisions/cli-start-without-fetch.md).
 *
 * Each site is the exact text of the installed dependency; the build fails when a site is not
 * found once, so an upgrade that moves one is noticed (test/cli/start-without-fetch.test.ts checks
 * that a start and the API's answers still load no Fetch).
 */
import { readFileSync } from 'node:fs'

const SITES = [
  // @mswjs/interceptors (msw's request handlers use it), evaluated with the bundle.
  {
    file: /[\\/]@mswjs[\\/]interceptors[\\/]lib[\\/]node[\\/]fetchUtils-[^\\/]+\.mjs$/,
    text: 'var FetchResponse = class FetchResponse extends Response {',
    global: 'Response',
  },
  // rettime (@msw/data's events), evaluated when the subscriber store is made.
  {
    file: /[\\/]rettime[\\/]build[\\/]index\.mjs$/,
    text: 'var TypedEvent = class extends MessageEvent {',
    global: 'MessageEvent',
  },
]

/**
 * The stand-in: a constructor whose own prototype chain is empty until it is first called (as the
 * subclass's `super`), then the real class's. `super()` finds the base through the subclass's
 * prototype at each call, so every instance is made by the real constructor, with the subclass's
 * prototype; `instanceof` and the inherited methods hold from the first instance on, and there is
 * none before it.
 */
export const STAND_IN = `function __sendboxLazyBase(name) {
  let linked = false
  function LazyBase(...args) {
    const real = globalThis[name]
    if (!linked) {
      linked = true
      Object.setPrototypeOf(LazyBase, real)
      Object.setPrototypeOf(LazyBase.prototype, real.prototype)
    }
    return Reflect.construct(real, args, new.target)
  }
  return LazyBase
}
`

export function lazyFetchBases() {
  return {
    name: 'lazy-fetch-bases',
    setup(b) {
      for (const site of SITES) {
        b.onLoad({ filter: site.file }, (args) => {
          const text = readFileSync(args.path, 'utf8')
          if (text.split(site.text).length !== 2)
            throw new Error(`lazy-fetch-bases: expected "${site.text}" once in ${args.path}`)
          const lazy = site.text.replace(`extends ${site.global} {`, `extends __sendboxLazyBase('${site.global}') {`)
          return { contents: `${STAND_IN}${text.replace(site.text, lazy)}`, loader: 'js' }
        })
      }
    },
  }
}
