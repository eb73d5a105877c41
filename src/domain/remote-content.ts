/**
 * Whether an email's HTML references anything remote (images, backgrounds, stylesheets, fonts):
 * what the preview blocks unless asked for, so the "remote content blocked" notice shows only
 * when something was blocked. Links (`<a href>`) load nothing and do not count. Pure: the
 * preview route and the web inbox's button use the same rule.
 */
export function hasRemoteContent(html: string): boolean {
  return /\b(?:src|srcset|background|href|poster)\s*=\s*["']?\s*(?:https?:)?\/\/|url\(\s*["']?\s*(?:https?:)?\/\/|@import\s+["']\s*(?:https?:)?\/\//i.test(
    html.replace(/<a\b[^>]*>/gi, ''),
  )
}
