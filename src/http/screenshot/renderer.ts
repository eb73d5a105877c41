import type { Browser, Page, Route as PlaywrightRoute } from 'playwright-core'
import { SCREENSHOT_MAX_HEIGHT, type PreviewScheme } from '../../contract/preview.js'
import { ApiError } from '../../domain/errors.js'
import { previewCsp } from '../preview-policy.js'
import { withForcedDark } from '../preview-scheme.js'
import { launchChromium } from './chromium.js'
import { ImageCache, RenderQueue } from './render-queue.js'

/** What to draw: a whole HTML document, its width, its colour scheme, and whether remote content may load. */
export interface RenderRequest {
  /** The cache's key: the message, the width, the scheme, `remote`. */
  key: string
  html: string
  width: number
  scheme: PreviewScheme
  remote: boolean
}

export interface RendererOptions {
  /** Renders that may wait behind the running one (default 16). */
  queue?: number
  /** Longest one render may take, the browser's launch not included (default 20 s). */
  timeoutMs?: number
  /** Screenshots kept (default 48, and at most 64 MB in all). */
  cacheEntries?: number
  cacheBytes?: number
  /** An idle browser is closed after this long (default 60 s); the next render starts a new one. */
  idleMs?: number
}

/**
 * The URL the document is served at inside the browser (by the page's route, never fetched). A
 * loopback name: with `remote=1` Chromium lets a loopback page load images from a development
 * server on localhost, which it refuses to a public one (Private Network Access).
 */
const DOCUMENT_URL = 'http://localhost/__sendbox_screenshot__'

/** The browser and its one page, reused from render to render (a new page costs a renderer process). */
interface Session {
  browser: Browser
  page: Page
}

/**
 * Screenshots of one sandbox: one headless Chromium and one page, kept alive between renders
 * (closed after `idleMs` unused, at the server's shutdown and at the sandbox's dispose), one render
 * at a time behind a bounded queue, the results in a small LRU cache. See docs/screenshots.md.
 */
export class ScreenshotRenderer {
  private session: Promise<Session> | undefined
  private idle: ReturnType<typeof setTimeout> | undefined
  /** The render in progress: what the page's route serves and lets through. */
  private current: { html: string; remote: boolean; served: boolean } | undefined
  private readonly queue: RenderQueue<Uint8Array<ArrayBuffer>>
  private readonly cache: ImageCache
  private readonly timeoutMs: number
  private readonly idleMs: number

  constructor(options: RendererOptions = {}) {
    this.queue = new RenderQueue(options.queue ?? 16)
    this.cache = new ImageCache(options.cacheEntries ?? 48, options.cacheBytes ?? 64 * 1024 * 1024)
    this.timeoutMs = options.timeoutMs ?? 20_000
    this.idleMs = options.idleMs ?? 60_000
  }

  /** The PNG of `request`: from the cache, else rendered in turn. Throws 501, 503 or 504 as an ApiError. */
  async render(request: RenderRequest): Promise<Uint8Array<ArrayBuffer>> {
    const cached = this.cache.get(request.key)
    if (cached) return cached
    const image = await this.queue.run(request.key, () => this.renderNow(request))
    this.cache.set(request.key, image)
    return image
  }

  /** Closes the browser and forgets the cache; a later render starts a new browser. */
  async close(): Promise<void> {
    this.cache.clear()
    await this.stop()
  }

  private async stop(): Promise<void> {
    clearTimeout(this.idle)
    const session = this.session
    this.session = undefined
    await session?.then(({ browser }) => browser.close()).catch(() => undefined)
  }

  /** The browser and its page, launched on first use (a 501 when there is no Chromium). */
  private start(): Promise<Session> {
    const started = (async () => {
      const browser = await launchChromium()
      browser.once('disconnected', () => {
        if (this.session === started) this.session = undefined
      })
      const context = await browser.newContext({
        javaScriptEnabled: false,
        deviceScaleFactor: 1,
        serviceWorkers: 'block',
        acceptDownloads: false,
      })
      await context.route('**/*', (route) => this.answer(route))
      return { browser, page: await context.newPage() }
    })()
    started.catch(() => {
      if (this.session === started) this.session = undefined
    })
    return started
  }

  /** The document once; remote http(s) subresources with `remote`; everything else aborted (a refresh or a frame's navigation too: the page stays). */
  private answer(route: PlaywrightRoute): Promise<void> {
    const asked = route.request()
    const current = this.current
    if (
      current &&
      !current.served &&
      asked.url() === DOCUMENT_URL &&
      asked.isNavigationRequest() &&
      asked.frame().parentFrame() === null
    ) {
      current.served = true
      return route.fulfill({
        status: 200,
        headers: {
          'Content-Type': 'text/html; charset=utf-8',
          'Content-Security-Policy': previewCsp({ remote: current.remote }),
        },
        body: current.html,
      })
    }
    if (current?.remote && !asked.isNavigationRequest() && /^https?:/i.test(asked.url())) return route.continue()
    return route.abort('aborted')
  }

  private async renderNow(request: RenderRequest): Promise<Uint8Array<ArrayBuffer>> {
    clearTimeout(this.idle)
    // The launch has its own limit (30 s): a first render on a busy machine may wait that long.
    const { page } = await (this.session ??= this.start())
    let timer: ReturnType<typeof setTimeout> | undefined
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new ApiError(
              'render_timeout',
              `The screenshot took longer than ${this.timeoutMs / 1000} s and was abandoned (a very long message, or remote content that never loads: try without remote=1).`,
            ),
          ),
        this.timeoutMs,
      )
    })
    try {
      return await Promise.race([this.shoot(page, request), timedOut])
    } catch (error) {
      // A page that timed out or broke is not reused.
      if (!(error instanceof ApiError && error.status === 501)) await this.stop()
      throw error
    } finally {
      clearTimeout(timer)
      this.current = undefined
      this.idle = setTimeout(() => void this.stop(), this.idleMs)
      this.idle.unref?.()
    }
  }

  /** Loads the document and takes the page, `width` wide, at most {@link SCREENSHOT_MAX_HEIGHT} tall. */
  private async shoot(page: Page, request: RenderRequest): Promise<Uint8Array<ArrayBuffer>> {
    await page.setViewportSize({ width: request.width, height: 600 })
    await page.emulateMedia({ colorScheme: request.scheme === 'dark' ? 'dark' : 'light' })
    this.current = {
      html: request.scheme === 'dark-forced' ? withForcedDark(request.html) : request.html,
      remote: request.remote,
      served: false,
    }
    await page.goto(DOCUMENT_URL, { waitUntil: 'load', timeout: this.timeoutMs })
    const height = await page.evaluate(() =>
      Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0),
    )
    const clip = {
      x: 0,
      y: 0,
      width: request.width,
      height: Math.max(1, Math.min(SCREENSHOT_MAX_HEIGHT, Math.ceil(height))),
    }
    return new Uint8Array(await page.screenshot({ type: 'png', fullPage: true, clip, animations: 'disabled' }))
  }
}
