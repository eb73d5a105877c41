import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

let built: Promise<void> | undefined

/** Builds dist/web when it is missing or older than the inbox's sources (`npm test` builds first anyway). */
export function buildWebInboxOnce(): Promise<void> {
  built ??= (async () => {
    const assets = join('dist', 'web', 'assets.js')
    if (existsSync(assets) && statSync(assets).mtimeMs >= newestSource()) return
    const { buildWebInbox } = (await import(join(process.cwd(), 'scripts/build-web.mjs'))) as {
      buildWebInbox(root: string, options?: { quiet?: boolean }): Promise<unknown>
    }
    await buildWebInbox(process.cwd(), { quiet: true })
  })()
  return built
}

function newestSource(): number {
  let newest = 0
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else newest = Math.max(newest, statSync(path).mtimeMs)
    }
  }
  walk(join('src', 'ui', 'web'))
  return newest
}

/** The flags the web inbox tests run Chromium with: headless, no sandbox, no background traffic. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]
