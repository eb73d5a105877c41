import { z } from 'zod'
import { CHANNELS, type CapturedMessage } from '../contract/captured-message.js'
import { channelList } from '../domain/channels/index.js'
import { PREVIEW_SCHEMES, SCREENSHOT_MAX_HEIGHT, SCREENSHOT_WIDTH } from '../contract/preview.js'
import { enumParam, flagParam } from '../contract/query.js'
import { ApiError } from '../domain/errors.js'
import type { SandboxState } from '../domain/sandbox.js'
import { controlRoute, type Route } from './route.js'
import { visibleOne } from './viewer-scope.js'
import type { ScreenshotRenderer } from './screenshot/renderer.js'

const { min, max } = SCREENSHOT_WIDTH

/** `width`: digits, from {@link SCREENSHOT_WIDTH}.min to .max. */
const widthParam = z
  .string()
  .regex(/^[0-9]{1,5}$/, {
    error: (issue) =>
      `Query parameter \`width\` must be a whole number of pixels from ${min} to ${max} (got ${JSON.stringify(String(issue.input).slice(0, 40))}).`,
  })
  .transform(Number)
  .refine((width) => width >= min && width <= max, {
    error: (issue) =>
      `Query parameter \`width\` must be a whole number of pixels from ${min} to ${max} (got ${String(issue.input)}).`,
  })
  .optional()
  .meta({
    description: `The image's width in pixels, from ${min} to ${max} (device scale 1: the PNG is exactly this wide). Default ${SCREENSHOT_WIDTH.email} for an email, ${SCREENSHOT_WIDTH.phone} for ${channelList(CHANNELS.filter((c) => c !== 'email'))}.`,
  })

/** Each sandbox's renderer, made on the first screenshot and released with the sandbox (or the server). */
const renderers = new WeakMap<SandboxState, Promise<ScreenshotRenderer>>()

/** The renderer of `sandbox`: its module (and playwright-core) loaded only when a screenshot is first asked for. */
function rendererOf(sandbox: SandboxState): Promise<ScreenshotRenderer> {
  let renderer = renderers.get(sandbox)
  if (renderer === undefined) {
    renderer = import('./screenshot/renderer.js').then(({ ScreenshotRenderer }) => new ScreenshotRenderer())
    renderers.set(sandbox, renderer)
    const release = () => closeScreenshots(sandbox)
    sandbox.disposers.add(release)
    void renderer.catch(() => sandbox.disposers.delete(release))
  }
  return renderer
}

/** Closes the sandbox's screenshot browser, if one runs (the server's `close()`, the sandbox's dispose). */
export async function closeScreenshots(sandbox: SandboxState): Promise<void> {
  const renderer = renderers.get(sandbox)
  renderers.delete(sandbox)
  await renderer?.then((r) => r.close()).catch(() => undefined)
}

/** The document to draw: the email's own HTML, or any other channel's message as a phone shows it. */
async function documentOf(message: CapturedMessage): Promise<string> {
  if (message.channel === 'email') return message.email.html
  const { smsPage, whatsappPage } = await import('./screenshot/phone-page.js')
  return message.channel === 'sms' ? smsPage(message) : whatsappPage(message)
}

/**
 * `16,384`, grouped without `toLocaleString`: this text is made when the route table loads, and
 * the first locale call maps ~6 MB of ICU data into every server's memory (RSS) for good.
 */
const MAX_HEIGHT_TEXT = String(SCREENSHOT_MAX_HEIGHT).replace(/\B(?=(\d{3})+(?!\d))/g, ',')

export const screenshotRoutes: Route[] = [
  controlRoute({
    method: 'GET',
    path: '/__sandbox/messages/{id}/screenshot.png',
    operationId: 'getCapturedMessageScreenshot',
    summary: 'A PNG of the message as a reader sees it',
    description: `Rendered in headless Chromium (playwright-core, an optional peer dependency): an email's HTML as its own document; ${channelList(CHANNELS.filter((c) => c !== 'email'))} messages as a phone's messaging app shows them. No script runs (JavaScript off and a Content-Security-Policy) and nothing is fetched unless \`remote=1\`. The PNG is exactly \`width\` pixels wide and as tall as the message, at most ${MAX_HEIGHT_TEXT} pixels. One render at a time, at most 16 waiting; the last 48 are kept (per message, width, scheme and remote). See docs/screenshots.md.`,
    query: {
      width: widthParam,
      scheme: enumParam(
        'scheme',
        PREVIEW_SCHEMES,
        "`light` (default); `dark`: the email's own `prefers-color-scheme: dark` styles; `dark-forced`: the colours inverted as Gmail's apps and Outlook.com do, images kept.",
      ),
      remote: flagParam(
        'remote',
        'Let the email load images, styles and fonts from http(s) URLs (blocked by default).',
      ),
    },
    response: { png: true },
    answers: [
      {
        code: 'not_available',
        description:
          'No headless Chromium here (`not_available`): the message says how to get one (`apt-get install chromium`, or `CHROMIUM_PATH=/path/to/chrome`), or that playwright-core is not installed.',
      },
      {
        code: 'too_many_clients',
        description:
          'Sixteen screenshots already wait for their turn (`too_many_clients`); `Retry-After` says when to ask again.',
      },
      { code: 'render_timeout', description: 'The render took longer than 20 s (`render_timeout`).' },
    ],
    team: true,
    resolve: async ({ sandbox, params, query, viewer }) => {
      const message = visibleOne(viewer, sandbox.outbox.get(params.id))
      if (!message)
        throw new ApiError(
          'not_found',
          `No captured message with id "${params.id.slice(0, 100)}". List them with GET /__sandbox/messages.`,
        )
      const width = query.width ?? (message.channel === 'email' ? SCREENSHOT_WIDTH.email : SCREENSHOT_WIDTH.phone)
      const scheme = query.scheme ?? 'light'
      const remote = query.remote === true
      const renderer = await rendererOf(sandbox)
      const png = await renderer.render({
        key: `${message.message_id}|${width}|${scheme}|${remote ? 1 : 0}`,
        html: await documentOf(message),
        width,
        scheme,
        remote,
      })
      return new Response(png, {
        status: 200,
        headers: {
          'Content-Type': 'image/png',
          'Content-Length': String(png.byteLength),
          'Cache-Control': 'no-store',
          'X-Content-Type-Options': 'nosniff',
        },
      })
    },
  }),
]
