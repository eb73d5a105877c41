/** @jsxImportSource preact */
/**
 * A WhatsApp message as the recipient reads it: the filled template (header, body, footer) in a
 * chat bubble with its buttons under it; a reply (`direction: "inbound"`) on the other side.
 * Without configured templates the bubble shows the one-line preview, as before. Also the codes
 * list and the link to a message's request, shared by every channel's view.
 */
import type { ComponentChildren } from 'preact'
import { useEffect } from 'preact/hooks'
import { safeText } from '../../../domain/safe-text.js'
import { hrefOf } from './router.js'
import { CopyButton } from './widgets.js'
import { requests, useFeed, wantJournal } from './state.js'
import type { JournalEntry, WhatsappMessage } from './types.js'

/** A link from a captured message to the journal entry of the request that sent it, while the journal holds it. */
export function RequestLink({ messageId }: { messageId: string }) {
  useEffect(wantJournal, [])
  useFeed(requests)
  // The API request that sent it (webhook attempts about it name it too).
  const entry = requests.rows.find(
    (e): e is JournalEntry => e !== undefined && e.kind === 'api' && e.message_id === messageId,
  )
  return entry ? <a href={hrefOf('requests', String(entry.id))}>request #{entry.id}</a> : null
}

/** The codes the API extracted from a message, each with a copy button (every channel alike). */
export function CodesList({ codes }: { codes: readonly string[] }) {
  if (codes.length === 0) return null
  return (
    <section class="codes" aria-label="One-time codes">
      <h3>Codes</h3>
      <ul>
        {codes.map((code) => (
          <li key={code}>
            <code class="code-mark">{code}</code> <CopyButton text={code} label={`Copy code ${code}`} />
          </li>
        ))}
      </ul>
    </section>
  )
}

/** Marks every occurrence of the codes in a text. */
export function markCodes(text: string, codes: readonly string[]): ComponentChildren {
  if (codes.length === 0) return text
  const pattern = new RegExp(`(${codes.map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`, 'g')
  return text.split(pattern).map((part, i) => (i % 2 === 1 ? <mark class="code-mark">{part}</mark> : part))
}

/** The chat pane of a WhatsApp message. `values` are what to mark in a preview without a template. */
export function WhatsappBubble({ message, values }: { message: WhatsappMessage; values: string[] }) {
  const { whatsapp } = message
  const inbound = message.direction === 'inbound'
  const rendered = whatsapp.rendered
  const codes = rendered ? message.codes : values
  return (
    <div class="chat" aria-label={inbound ? 'WhatsApp reply' : 'WhatsApp message as the recipient reads it'}>
      <div class={`bubble wa-bubble${inbound ? ' wa-inbound' : ''}`} dir="auto">
        {/* Every string made safe as in the terminal (src/domain/safe-text.ts); the bubble is dir="auto". */}
        {inbound ? (
          <div class="wa-template">
            Reply from <bdi>{safeText(whatsapp.from ?? 'unknown')}</bdi>
          </div>
        ) : rendered ? null : (
          <div class="wa-template">{safeText(whatsapp.template)}</div>
        )}
        {rendered?.header ? <div class="wa-header">{markCodes(safeText(rendered.header), codes)}</div> : null}
        <div class="wa-text">{markCodes(safeText(rendered ? rendered.body : whatsapp.preview), codes)}</div>
        {rendered?.footer ? <div class="wa-footer">{safeText(rendered.footer)}</div> : null}
        <div class="wa-meta">{inbound ? 'received' : safeText(whatsapp.language)}</div>
      </div>
      {rendered && rendered.buttons.length > 0 ? (
        <ul class="wa-buttons" aria-label="Buttons">
          {rendered.buttons.map((button, i) => (
            <li key={i}>
              {button.url ? (
                <a href={button.url} target="_blank" rel="noopener noreferrer" title={button.url}>
                  ↗ {safeText(button.text)}
                </a>
              ) : (
                <span>↩ {safeText(button.text)}</span>
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}
