/*
 * How the sandbox shows a captured email's HTML (`GET /__sandbox/messages/{id}/html`): the HTML
 * is the sender's, so it must neither run on the sandbox's origin nor phone home. Remote images,
 * styles and fonts are blocked unless asked for with `?remote=1` (a remote image tells the
 * sender the developer's IP and when the mail was read), `<base>` is ignored, and only the
 * sandbox's own pages (the web inbox) may frame it. Pure: the route calls these (issue 11).
 */

/** Options of {@link previewHeaders}. */
export interface PreviewOptions {
  /** `?remote=1`: let the email load images, styles and fonts from http(s) URLs. */
  remote: boolean
}

/** The one-line notice shown above a preview whose remote content was blocked. */
export const REMOTE_BLOCKED_TEXT = 'Remote content blocked — add ?remote=1 to load it'

/**
 * The Content-Security-Policy of a preview: `sandbox` (no scripts, forms, popups, an opaque
 * origin), nothing by default, inline styles and `data:`/`cid:` images and fonts, remote ones
 * only with `remote`; `base-uri 'none'` so a `<base href>` cannot redirect relative URLs;
 * `frame-ancestors 'self'` so only the sandbox's own pages may frame it.
 */
export function previewCsp({ remote }: PreviewOptions): string {
  const web = remote ? ' https: http:' : ''
  return [
    'sandbox',
    "default-src 'none'",
    `img-src data: cid:${web}`,
    `style-src 'unsafe-inline'${web}`,
    `font-src data:${web}`,
    "base-uri 'none'",
    "frame-ancestors 'self'",
  ].join('; ')
}

/**
 * Every header of a preview answer.
 *
 * @example
 * new Response(previewBanner(remote) + html, { headers: previewHeaders({ remote }) })
 */
export function previewHeaders(options: PreviewOptions): Record<string, string> {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': previewCsp(options),
    'X-Content-Type-Options': 'nosniff',
    // A remote image that is allowed still does not learn which message (or token) it was in.
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  }
}

/**
 * The banner to put before the email's HTML: one line saying remote content was blocked and
 * how to load it, or nothing when it is loaded. Inline-styled (the CSP allows inline styles only),
 * no script. `remoteHref`, when given (the same URL with `remote=1`, token kept), makes the
 * `?remote=1` part a link.
 */
export function previewBanner(remote: boolean, remoteHref?: string): string {
  if (remote) return ''
  const switchText =
    remoteHref === undefined
      ? '?remote=1'
      : `<a href="${escapeAttribute(remoteHref)}" style="color:inherit">?remote=1</a>`
  return `<div data-sendbox-banner role="status" style="font:13px/1.4 system-ui,sans-serif;background:#fff4d6;color:#4a3b00;border-bottom:1px solid #e6d38a;padding:6px 10px;margin:0 0 8px">Remote content blocked — add ${switchText} to load it</div>`
}

/**
 * The email's HTML with the banner inside its `<body>` (or first, when it has none): put before
 * a `<!doctype html>`, it would switch the page to quirks mode and change how the email renders.
 */
export function withBanner(html: string, banner: string): string {
  if (banner === '') return html
  const body = /<body\b[^<>]{0,2048}>/i.exec(html)
  return body
    ? html.slice(0, body.index + body[0].length) + banner + html.slice(body.index + body[0].length)
    : banner + html
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}
