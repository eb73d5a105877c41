import type { PreviewScheme } from '../contract/preview.js'

/*
 * An email in the colour schemes clients show it in (issue 35, item 5): pure text work on the
 * email's HTML, shared by the web inbox's preview (`GET /__sandbox/messages/{id}/html?scheme=`)
 * and the screenshot route. docs/decisions/dark-preview.md says why it is done this way.
 */

/**
 * Forced dark mode as Gmail's apps and Outlook.com apply it to an email that has no dark styles
 * of its own: the page's colours inverted (light backgrounds turn dark, dark text turns light; the
 * hue rotation keeps a red red and a blue blue), and images, pictures, videos, SVG and background
 * images inverted back so that photos and logos keep their colours.
 */
export const FORCED_DARK_CSS =
  'html{filter:invert(1) hue-rotate(180deg)!important;background:#fff!important}' +
  'img,picture,video,svg,[background],[style*="background-image"],[style*="background:url"]{filter:invert(1) hue-rotate(180deg)!important}'

/** `prefers-color-scheme` inside a media query: `(prefers-color-scheme: dark)`, any spacing and case. */
const SCHEME_QUERY = /\(\s*prefers-color-scheme\s*:\s*(dark|light)\s*\)/gi

/**
 * The email's HTML as a browser in `scheme` would render it, for a frame that cannot ask its
 * browser for that scheme (an iframe follows the browser's own preference): each
 * `(prefers-color-scheme: dark)` query in its styles and `media` attributes is made true (`dark`)
 * or false (`light`, `dark-forced`), and `dark-forced` adds {@link FORCED_DARK_CSS} last, so it
 * applies over the email's own styles.
 */
export function withScheme(html: string, scheme: PreviewScheme): string {
  const dark = scheme === 'dark'
  const rewritten = html.replace(SCHEME_QUERY, (_query, wanted: string) =>
    (wanted.toLowerCase() === 'dark') === dark ? '(min-width:0px)' : '(max-width:0px)',
  )
  return scheme === 'dark-forced' ? withForcedDark(rewritten) : rewritten
}

/** The email's HTML with {@link FORCED_DARK_CSS} after everything else (a late `<style>` still applies to the whole page). */
export function withForcedDark(html: string): string {
  return `${html}\n<style data-sendbox-forced-dark>${FORCED_DARK_CSS}</style>`
}
