/**
 * How a message is previewed (issue 35, items 5 and 6): the colour schemes of the web inbox's
 * preview and of `GET /__sandbox/messages/{id}/screenshot.png`, and the screenshot's width bounds.
 * See docs/screenshots.md and docs/decisions/dark-preview.md.
 */

/**
 * `light`: as the email asks in a light client; `dark`: the email's own
 * `@media (prefers-color-scheme: dark)` styles (Apple Mail, Outlook for Mac, iOS); `dark-forced`:
 * the client inverts the colours itself (Gmail's apps, Outlook.com), images kept as they are.
 */
export const PREVIEW_SCHEMES = ['light', 'dark', 'dark-forced'] as const
export type PreviewScheme = (typeof PREVIEW_SCHEMES)[number]

/** A screenshot's width in CSS pixels (device scale 1, so also in image pixels). */
export const SCREENSHOT_WIDTH = { min: 200, max: 2000, email: 600, phone: 375 } as const

/** The tallest screenshot: a longer message is cut there. */
export const SCREENSHOT_MAX_HEIGHT = 10_000
