import { CHANNELS, type Channel, type MessageOf } from '../../../contract/captured-message.js'
import { emailView } from './email.js'
import { smsView } from './sms.js'
import type { Badge, TerminalChannelView } from './types.js'
import { whatsappView } from './whatsapp.js'

/** The terminal view of every channel. A channel missing here is a compile error. */
export const TERMINAL_VIEWS: { [C in Channel]: TerminalChannelView<C> } = {
  email: emailView,
  sms: smsView,
  whatsapp: whatsappView,
}

/** The view of a message's channel. */
export function viewOf<C extends Channel>(message: MessageOf<C>): TerminalChannelView<C> {
  return TERMINAL_VIEWS[message.channel as C] as unknown as TerminalChannelView<C>
}

/** Badge labels (full and short, for narrow terminals) and colours per channel: each channel its own colour. */
export const CHANNEL_BADGES = Object.fromEntries(CHANNELS.map((c) => [c, TERMINAL_VIEWS[c].badge])) as Record<
  Channel,
  Badge
>

export type { Badge, TerminalChannelView }
