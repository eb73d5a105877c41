/** @jsxImportSource preact */
/**
 * How the web inbox shows each channel's message: its title and its own view under the common
 * header. A record over every channel: a new channel fails to compile until it has a view here.
 */
import type { ComponentChildren } from 'preact'
import type { Channel } from '../types.js'
import type { CapturedMessage, MessageSummary } from '../types.js'
import { Sender } from '../widgets.js'
import { EmailView } from './email.js'
import { SmsView } from './sms.js'
import { WhatsappView } from './whatsapp.js'

type MessageOf<C extends Channel> = Extract<CapturedMessage, { channel: C }>
type ListedOf<C extends Channel> = Extract<MessageSummary, { channel: C }>

export interface WebChannelView<C extends Channel> {
  /** The sender as a row shows it: an email's name and address apart, so each is isolated on its own (a name cannot reorder the address). */
  sender(message: ListedOf<C>): { email: string; name: string | null } | string | null
  /** The page's heading for a message sent by the app (a reply is titled by its sender). */
  title(message: MessageOf<C>): string
  /** Extra rows of the common header (`<dt>`/`<dd>` pairs), if any. */
  meta?(message: MessageOf<C>): ComponentChildren
  /** The channel's own view, under the header. */
  View(props: { message: MessageOf<C> }): ComponentChildren
}

export const WEB_VIEWS: { [C in Channel]: WebChannelView<C> } = {
  email: {
    sender: (m) => m.email.from,
    title: (m) => m.email.subject || '(no subject)',
    meta: (m) => (
      <div>
        <dt>From</dt>
        <dd>{m.email.from ? <Sender from={m.email.from} /> : 'not set'}</dd>
      </div>
    ),
    View: EmailView,
  },
  sms: { sender: (m) => m.sms.from, title: (m) => `SMS to ${m.to}`, View: SmsView },
  whatsapp: { sender: (m) => m.whatsapp.from ?? null, title: (m) => `WhatsApp to ${m.to}`, View: WhatsappView },
}

/** The view of a message's channel. */
export function webViewOf<C extends Channel>(message: MessageOf<C> | ListedOf<C>): WebChannelView<C> {
  return WEB_VIEWS[message.channel as C] as unknown as WebChannelView<C>
}
