import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'

/**
 * The library as package.json "exports" serves it: esbuild's bundle in dist/lib (scripts/bundle.mjs),
 * three entries over shared chunks. What must hold once bundled: one copy of the domain behind
 * `sendbox`, `sendbox/server` and `sendbox/matchers`; msw and faker left to node_modules, what is loaded
 * on first use in lazy chunks.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const LIB = join(ROOT, 'dist/lib')
if (!existsSync(join(LIB, 'index.js')))
  throw new Error('dist/lib is missing: run `npm run build` (npm test does) before this suite')

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, any> }
const entry = (name: string, condition = 'import') => {
  const target = manifest.exports[name]
  return pathToFileURL(join(ROOT, (target[condition] ?? target).default)).href
}
const files = readdirSync(LIB).filter((f) => f.endsWith('.js'))
const source = files.map((f) => readFileSync(join(LIB, f), 'utf8')).join('\n')
const staticImports = (text: string) =>
  [...text.matchAll(/^(?:import|export)\b[^;]*?from\s*"([^"]+)"|^import\s*"([^"]+)"/gm)].map((m) => m[1] ?? m[2])
const staticPackages = (text: string) => staticImports(text).filter((s) => !s.startsWith('./'))
/**
 * What `sendbox`, `sendbox/server`, `sendbox/matchers` and `sendbox/client` load up front: those
 * entries and the chunks they import statically. Apart from it: the Playwright entry (its peer
 * dependency), and the chunks loaded on first use (MCP, message checks, the check worker,
 * screenshots).
 */
function upFront(entries: string[]): string[] {
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    for (const target of staticImports(readFileSync(join(LIB, file), 'utf8')))
      if (target.startsWith('./')) visit(target.slice(2))
  }
  entries.forEach(visit)
  return [...seen]
}
const core = upFront(['index.js', 'server.js', 'matchers.js', 'client.js'])
  .map((f) => readFileSync(join(LIB, f), 'utf8'))
  .join('\n')

describe('the bundled library (dist/lib)', () => {
  it('is what "exports" names, for import and require', () => {
    for (const name of ['.', './server']) expect(entry(name, 'import')).toBe(entry(name, 'require'))
    expect(entry('.')).toMatch(/\/dist\/lib\/index\.js$/)
    expect(entry('./matchers')).toMatch(/\/dist\/lib\/matchers\.js$/)
    expect(entry('./server')).toMatch(/\/dist\/lib\/server\.js$/)
  })

  it('defines each class of the domain once, whichever entries import it', () => {
    for (const name of ['Outbox', 'WaitTimeoutError', 'ApiError', 'SubscriberStore', 'SandboxState']) {
      expect(source.match(new RegExp(`\\b(var|class) ${name}\\b`, 'g')) ?? [], name).toHaveLength(1)
    }
  })

  it('leaves msw and faker to node_modules, faker loaded lazily, and @msw/data, html-to-text and htmlparser2 in lazy chunks', () => {
    const packages = staticPackages(core)
    expect(new Set(packages)).toEqual(new Set(['msw', 'node:http']))
    // The MCP SDK only in the MCP chunk, which nothing imports statically; @playwright/test only in sendbox/playwright.
    const mcp = files.filter((f) => /^mcp-http-/.test(f))
    expect(mcp).toHaveLength(1)
    expect(
      new Set(staticPackages(readFileSync(join(LIB, mcp[0]), 'utf8')).map((s) => s.split('/').slice(0, 2).join('/'))),
    ).toEqual(new Set(['@modelcontextprotocol/sdk']))
    expect(core).toContain(`import("./${mcp[0]}")`)
    // Web-standard transport only: a browser bundle of `sendbox` (setupWorker) must resolve it.
    expect(readFileSync(join(LIB, mcp[0]), 'utf8')).not.toContain('server/stdio')
    expect(core).not.toMatch(new RegExp(`from\\s*"\\./${mcp[0]}"`))
    expect(new Set(staticPackages(readFileSync(join(LIB, 'playwright.js'), 'utf8')))).toEqual(
      new Set(['@playwright/test']),
    )
    expect(source).toContain('import("@faker-js/faker/locale/en")')
    // html-to-text and htmlparser2 (with domhandler, entities, selderee…) bundled into chunks the
    // first email's derivation (or the checks) load: one file instead of ~40 modules.
    expect(source).not.toMatch(/import\("(html-to-text|htmlparser2)"\)|from\s*"(html-to-text|htmlparser2)"/)
    const holding = (pattern: RegExp) => files.filter((f) => pattern.test(readFileSync(join(LIB, f), 'utf8')))
    const htmlToText = holding(/\bvar BlockTextBuilder = class\b|\bclass BlockTextBuilder\b/)
    const htmlparser2 = holding(/\bvar Tokenizer = class\b|\bclass Tokenizer\b/)
    expect(htmlToText).toHaveLength(1)
    expect(htmlparser2).toHaveLength(1)
    expect(core).toContain(`import("./${htmlToText[0]}")`)
    const loadedUpFront = upFront(['index.js', 'server.js', 'matchers.js', 'client.js'])
    expect(loadedUpFront).not.toContain(htmlToText[0])
    expect(loadedUpFront).not.toContain(htmlparser2[0])
    // @msw/data (and the few es-toolkit functions it uses) bundled in a chunk of its own, loaded by the first subscriber write.
    const data = files.filter((f) =>
      /class Collection\b|var Collection = class\b/.test(readFileSync(join(LIB, f), 'utf8')),
    )
    expect(data).toHaveLength(1)
    expect(core).toContain(`import("./${data[0]}")`)
    expect(upFront(['index.js', 'server.js', 'matchers.js', 'client.js'])).not.toContain(data[0])
    expect(source).not.toMatch(/from\s*"es-toolkit|import\("@msw\/data"\)/)
    // msw itself is not in the bundle: the handlers extend the user's msw.
    expect(source).not.toMatch(/\bclass HttpHandler\b|\bvar HttpHandler = class\b/)
  })

  it('bundles one copy of entities, so the HTML tools build one set of decode tables when they load', () => {
    // esbuild marks each bundled module with its path; html-to-text's dom-serializer gets htmlparser2's
    // copy (scripts/bundle.mjs, oneEntities) instead of a second, older one.
    const copies = new Set(
      [...source.matchAll(/^\/\/ (.*node_modules\/entities)\/.*decode-data-html\.js$/gm)].map((m) => m[1]),
    )
    expect([...copies]).toHaveLength(1)
  })

  it('ships the license of every package it bundled (dist/THIRD-PARTY-NOTICES.txt)', () => {
    const notices = readFileSync(join(ROOT, 'dist/THIRD-PARTY-NOTICES.txt'), 'utf8')
    const listed = new Set([...notices.matchAll(/^(@?[^@\s]+)@\d[^\s]* \(/gm)].map((m) => m[1]))
    // esbuild marks each bundled module with its path: `// node_modules/<package>/…`.
    const bundled = new Set(
      [...source.matchAll(/^\/\/ (?:.*\/)?node_modules\/(@[^/]+\/[^/]+|[^@/][^/]*)\//gm)].map((m) => m[1]),
    )
    for (const name of ['zod', '@msw/data', 'html-to-text', 'htmlparser2']) expect(bundled).toContain(name)
    for (const name of bundled) expect(listed, name).toContain(name)
    expect(notices).toContain('Permission is hereby granted, free of charge')
  })

  it('serves over sendbox/server what sendbox handles (one guard: the server hands it the buffered body)', async () => {
    const { createSandbox } = (await import(entry('.'))) as typeof import('../../src/index.js')
    const { startServer } = (await import(entry('./server'))) as typeof import('../../src/transports/http-server.js')
    const { matchers } = (await import(entry('./matchers'))) as typeof import('../../src/matchers.js')
    const sandbox = createSandbox({ subscribers: 2 })
    const running = await startServer(sandbox, { port: 0 })
    try {
      const sent = await fetch(`${running.url}/v1/email/send`, {
        method: 'POST',
        headers: { authorization: 'Bearer test_pro', 'content-type': 'application/json' },
        body: JSON.stringify({ to: 'ana@example.com', subject: 'Hi', html: '<p>Your code is 123456</p>' }),
      })
      expect(sent.status).toBe(200)
      const list = (await (
        await fetch(`${running.url}/v1/subscribers?limit=5`, { headers: { authorization: 'Bearer test_pro' } })
      ).json()) as { data: unknown[] }
      expect(list.data).toHaveLength(2)
      const inbox = await fetch(`${running.url}/__sandbox/ui/`)
      expect(inbox.status, 'the web inbox, found from a chunk of dist/lib').toBe(200)
      expect.extend(matchers)
      expect(sandbox).toHaveSent({ channel: 'email', to: 'ana@example.com', codes: ['123456'] })
    } finally {
      await running.close()
      sandbox.dispose()
    }
  })
})
