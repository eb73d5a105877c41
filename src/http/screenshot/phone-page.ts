import type { SmsMessage, WhatsappMessage } from '../../contract/captured-message.js'

/*
 * An SMS or a WhatsApp message drawn as a phone shows it, for the screenshot route: one received
 * bubble on the messaging app's background, light or dark by the page's `prefers-color-scheme`.
 * Every text is the sender's: escaped, never markup. No script, no remote resource.
 */

const CSS = `
:root{color-scheme:light dark;--bg:#efeae2;--bubble:#fff;--text:#111b21;--muted:#667781;--link:#027eb5;--top:#f0f2f5}
.sms{--bg:#fff;--bubble:#e9e9eb;--top:#f6f6f6}
@media (prefers-color-scheme: dark){
  :root{--bg:#0b141a;--bubble:#202c33;--text:#e9edef;--muted:#8696a0;--link:#53bdeb;--top:#202c33}
  .sms{--bg:#000;--bubble:#262629;--top:#1c1c1e}
}
*{box-sizing:border-box}
html,body{margin:0}
body{background:var(--bg);color:var(--text);font:16px/1.35 -apple-system,system-ui,"Segoe UI",Roboto,sans-serif;min-height:100vh}
header{background:var(--top);padding:12px 16px;font-weight:600;text-align:center;border-bottom:1px solid rgba(127,127,127,.25)}
header small{display:block;font-weight:400;color:var(--muted);font-size:12px}
main{padding:16px 12px}
.bubble{background:var(--bubble);border-radius:18px;padding:8px 12px;max-width:80%;white-space:pre-wrap;overflow-wrap:anywhere;box-shadow:0 1px .5px rgba(0,0,0,.13)}
.wa .bubble{border-radius:8px;border-top-left-radius:0}
.head{font-weight:700;margin-bottom:4px}
.foot{color:var(--muted);font-size:13px;margin-top:4px}
.buttons{max-width:80%;margin-top:2px}
.button{background:var(--bubble);color:var(--link);text-align:center;padding:9px;border-radius:8px;margin-top:2px;font-weight:500}
.meta{color:var(--muted);font-size:12px;margin-top:6px}
`

/** Text as HTML text (element content and quoted attribute values alike). */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

function page(kind: 'sms' | 'wa', title: string, subtitle: string, content: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><style>${CSS}</style></head>` +
    `<body class="${kind}"><header>${escapeHtml(title)}<small>${escapeHtml(subtitle)}</small></header><main>${content}</main></body></html>`
  )
}

/** An SMS as the recipient's messaging app shows it: the sender on top, the text in a bubble, its encoding and segments below. */
export function smsPage(message: SmsMessage): string {
  const { sms } = message
  const meta = `${sms.encoding} · ${sms.segments} segment${sms.segments === 1 ? '' : 's'} · ${sms.characters} characters`
  return page(
    'sms',
    sms.from ?? 'Text message',
    `to ${message.to}`,
    `<div class="bubble">${escapeHtml(sms.text)}</div><div class="meta">${escapeHtml(meta)}</div>`,
  )
}

/** A WhatsApp message as WhatsApp shows it: the filled template (header, body, footer, buttons) when known, else the preview line. */
export function whatsappPage(message: WhatsappMessage): string {
  const { whatsapp } = message
  const rendered = whatsapp.rendered
  const bubble = rendered
    ? (rendered.header ? `<div class="head">${escapeHtml(rendered.header)}</div>` : '') +
      `<div>${escapeHtml(rendered.body)}</div>` +
      (rendered.footer ? `<div class="foot">${escapeHtml(rendered.footer)}</div>` : '')
    : `<div>${escapeHtml(whatsapp.preview)}</div>`
  const buttons =
    rendered && rendered.buttons.length > 0
      ? `<div class="buttons">${rendered.buttons.map((button) => `<div class="button">${escapeHtml(button.text)}</div>`).join('')}</div>`
      : ''
  const subtitle = whatsapp.template
    ? `to ${message.to} · template ${whatsapp.template} (${whatsapp.language})`
    : `from ${whatsapp.from ?? message.to}`
  return page('wa', 'WhatsApp', subtitle, `<div class="bubble">${bubble}</div>${buttons}`)
}
